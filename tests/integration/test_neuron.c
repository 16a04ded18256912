/*
 * test_neuron.c — the daemon on the Neuron backend, over the libnrt
 * simulator (tests/nrtsim/: the same symbols and semantics as libnrt,
 * loaded with dlopen as the real library is) and its simulated compiler.
 *
 * Checked:
 *   - GEMMs run on NeuronCores from NEFFs: S and C, transposes, strided
 *     batches, FP32, BF16 and BF16x3, against a double-precision reference
 *     with each mode's error bound; that they really ran there is shown by
 *     an execution error injected into the simulated cores, which fails the
 *     op with the runtime's status and a NeuronCore named, after which the
 *     core is used again;
 *   - one GEMM split over both cores (by columns of C, or by matrices of
 *     a batch, the last part padded): right, run from one NEFF of a part's
 *     shape, and bitwise the result of the unsplit program;
 *   - a batch large enough runs as several executions, each one's inputs
 *     moved by DMA while the one before runs: the simulator's trace shows
 *     moves during executions on the same core; without device memory for
 *     a second tensor set, the executions run one after the other;
 *   - resident operands: a repeated GEMM moves only alpha and beta; every
 *     way of changing an operand (a Write, a copy or memset op, a GEMM
 *     writing it in the same chain, an op whose writes are not known, a
 *     reallocated buffer, pinned memory the program writes) moves it again
 *     and the result is the new contents'; --neuron-resident off moves all;
 *   - GEMMs queued back to back: the next one's inputs move while the one
 *     before executes (writes to the core during executions in the trace),
 *     none with --neuron-resident off, every result right;
 *   - hybrid placement: FP64 GEMMs and FFTs (no Neuron kernel) run on the
 *     CPU backend beside them, right;
 *   - the NEFF cache: a miss compiles once; the same shape from a second
 *     process is a hit (no compile); after a restart on the same cache
 *     directory the NEFF comes from disk (no compile);
 *   - a compile failure is remembered: reported to the op, not compiled
 *     again, also after a restart;
 *   - eviction: with device memory for one program at a time, programs of
 *     different shapes take turns on the cores and every result is right;
 *   - a second daemon is refused the cores the first owns, with the
 *     runtime's message;
 *   - a graph segment of GEMMs runs as one program (gemm_seq): once its
 *     NEFF is compiled each launch is one execution, right against double
 *     and bitwise the GEMMs run one by one; an update that changes where a
 *     node's operand comes from runs the new sequence; with executors and
 *     without;
 *   - with --executors off the daemon's process drives the cores itself;
 *   - a core that stops answering: the op there is stopped by the
 *     executor's watchdog, the core's executor and runtime start again and
 *     the core runs NEFFs again, while another session's ops all succeed.
 *
 * Error bounds (u = 2^-24, S_ij = |alpha| sum_l |a_il||b_lj| + |beta||c_ij|
 * with |z| = |re| + |im| for complex): FP32 accumulation of k products and
 * the two scalings gives |err| <= (k + 4) u S (Higham, eq. 3.5, gamma_n);
 * a complex product adds one addition per part, so twice that for C. BF16
 * rounds each input with relative error <= 2^-8, so each product is within
 * 2^-7 + 2^-16 of the exact one: (2^-7 + 2^-16 + (k + 4) u) S. BF16x3 keeps
 * x - hi - lo within 2^-16 |x| and drops lo·lo (<= 2^-16 |a b|): within
 * 3·2^-16 + 2^-32 per product: (3·2^-16 + (k + 4) u) S.
 */
#define _GNU_SOURCE
#include <complex.h>
#include <dirent.h>
#include <fcntl.h>
#include <math.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "harness.h"
#include "trnsci/trnblas.h"
#include "trnsci/trnfft.h"
#include "trnsci/trnsci.h"

#define NCORES 2

typedef enum mode { MODE_FP32, MODE_BF16, MODE_BF16X3 } mode;

typedef struct suite {
    th_daemon d;
    char cache[256]; /* --cache-dir, outliving the daemon's own directory */
    char locks[256]; /* the simulator's core ownership */
    char faults[300];
    int metrics_port;
} suite;

/* ---- the daemon ---------------------------------------------------------------- */

/* Starts the daemon on the simulated backend, with extra flags (NULL-ended,
 * or NULL), and connects. */
static int start_with(suite *s, const char *extra) {
    char listen[64];
    snprintf(listen, sizeof(listen), "127.0.0.1:%d", s->metrics_port);
    const char *args[16] = {"--backend",        "neuron",  "--neuron-lib", NRTSIM_LIB,
                            "--neuron-cc",      NRTSIM_CC, "--cache-dir",  s->cache,
                            "--metrics-listen", listen};
    int n = 10;
    char buf[128] = "";
    if (extra) {
        snprintf(buf, sizeof(buf), "%s", extra);
        for (char *save = NULL, *t = strtok_r(buf, " ", &save); t && n < 15;
             t = strtok_r(NULL, " ", &save))
            args[n++] = t;
    }
    args[n] = NULL;
    if (th_daemon_start(&s->d, args) != 0) {
        fprintf(stderr, "the daemon did not start; its log is %s\n", s->d.log_path);
        return -1;
    }
    return trnsciInit(s->d.unix_addr) == trnsciSuccess ? 0 : -1;
}

static int start(suite *s) {
    return start_with(s, NULL);
}

static void stop(suite *s) {
    trnsciDeviceReset();
    assert_int_equal(th_daemon_stop(&s->d), 0);
}

static int setup(void **state) {
    suite *s = calloc(1, sizeof(*s));
    if (!s)
        return -1;
    snprintf(s->cache, sizeof(s->cache), "/tmp/trnsci-neff-test-XXXXXX");
    snprintf(s->locks, sizeof(s->locks), "/tmp/trnsci-nrtsim-locks-XXXXXX");
    if (!mkdtemp(s->cache) || !mkdtemp(s->locks))
        return -1;
    snprintf(s->faults, sizeof(s->faults), "%s/faults", s->locks);
    FILE *f = fopen(s->faults, "w");
    if (!f)
        return -1;
    fclose(f);
    chmod(s->faults, 0644);
    chmod(s->locks, 01777);
    setenv("NRTSIM_CORES", "2", 1);
    setenv("NRTSIM_LOCK_DIR", s->locks, 1);
    setenv("NRTSIM_FAULTS", s->faults, 1);
    setenv("NRTSIM_CC_MS", "50", 1);
    unsetenv("NRTSIM_CC_FAIL");
    unsetenv("NRTSIM_HBM_MB");
    unsetenv("NRTSIM_TRACE");
    unsetenv("NRTSIM_DMA_GBPS");
    unsetenv("NRTSIM_GFLOPS");
    unsetenv("NEURON_RT_VISIBLE_CORES");
    s->metrics_port = th_free_port();
    *state = s;
    return 0;
}

static int teardown(void **state) {
    suite *s = *state;
    if (s->d.pid > 0) { /* a failed test left its daemon running */
        trnsciDeviceReset();
        th_daemon_stop(&s->d);
    }
    th_remove_dir(s->cache);
    th_remove_dir(s->locks);
    free(s);
    return 0;
}

static double metric(const suite *s, const char *series) {
    const double v = th_metrics_sample(s->metrics_port, series);
    assert_true(v >= 0);
    return v;
}

/* Files in the NEFF cache whose name ends with suffix. */
static int store_count(const suite *s, const char *suffix) {
    char path[300];
    snprintf(path, sizeof(path), "%s/neff", s->cache);
    DIR *d = opendir(path);
    int n = 0;
    for (struct dirent *e; d && (e = readdir(d));) {
        const size_t l = strlen(e->d_name), k = strlen(suffix);
        n += l > k && strcmp(e->d_name + l - k, suffix) == 0;
    }
    if (d)
        closedir(d);
    return n;
}

/* Arms the simulator's fault file (each process reads it afresh). */
static void arm_faults(const suite *s, const char *text) {
    FILE *f = fopen(s->faults, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* ---- GEMMs checked against double ------------------------------------------- */

typedef struct gemm_case {
    int cplx;
    trnblasOperation_t ta, tb;
    int m, n, k, batch;
    mode md;
    float alpha[2], beta[2];
} gemm_case;

/* The message of run_case's last failure (the calls after it reset the
 * thread's last error). */
static char last_error[1024];
/* run_case's last result (all of C), for comparisons between daemons. */
static float *last_out;
static size_t last_out_n;

static float urand(unsigned *st) {
    *st = *st * 1103515245u + 12345u;
    return (float)((*st >> 8) & 0xffff) / 32768.0f - 1.0f;
}

static trnblasComputeType_t compute_of(mode md) {
    return md == MODE_BF16     ? TRNBLAS_COMPUTE_32F_FAST_16BF
           : md == MODE_BF16X3 ? TRNBLAS_COMPUTE_32F_BF16X3
                               : TRNBLAS_COMPUTE_32F;
}

/* Element (r, c) of op(X) for column-major X (ld rows), complex or real. */
static double complex op_elem(const float *x, int ld, trnblasOperation_t t, int cplx, int r,
                              int c) {
    const size_t at = t == TRNBLAS_OP_N ? (size_t)r + (size_t)c * ld : (size_t)c + (size_t)r * ld;
    if (!cplx)
        return x[at];
    const double im = t == TRNBLAS_OP_C ? -x[2 * at + 1] : x[2 * at + 1];
    return x[2 * at] + im * I;
}

static double abs1(double complex z) {
    return fabs(creal(z)) + fabs(cimag(z));
}

/* Runs the case through the daemon: returns the status of the launch and
 * synchronize (trnsciSuccess when both went through), and on success
 * checks every element against the bound. */
static trnsciError_t run_case(const gemm_case *g, unsigned seed) {
    const int p = g->cplx ? 2 : 1;
    const int ar = g->ta == TRNBLAS_OP_N ? g->m : g->k, ac = g->ta == TRNBLAS_OP_N ? g->k : g->m;
    const int br = g->tb == TRNBLAS_OP_N ? g->k : g->n, bc = g->tb == TRNBLAS_OP_N ? g->n : g->k;
    const size_t sa = (size_t)ar * ac, sb = (size_t)br * bc, sc = (size_t)g->m * g->n;
    const size_t na = sa * g->batch * p, nb = sb * g->batch * p, nc = sc * g->batch * p;
    float *ha = malloc(na * 4), *hb = malloc(nb * 4), *hc = malloc(nc * 4), *out = malloc(nc * 4);
    assert_true(ha && hb && hc && out);
    for (size_t i = 0; i < na; i++)
        ha[i] = urand(&seed);
    for (size_t i = 0; i < nb; i++)
        hb[i] = urand(&seed);
    for (size_t i = 0; i < nc; i++)
        hc[i] = urand(&seed);
    void *da, *db, *dc;
    assert_int_equal(trnsciMalloc(&da, na * 4), trnsciSuccess);
    assert_int_equal(trnsciMalloc(&db, nb * 4), trnsciSuccess);
    assert_int_equal(trnsciMalloc(&dc, nc * 4), trnsciSuccess);
    assert_int_equal(trnsciMemcpy(da, ha, na * 4, trnsciMemcpyHostToDevice), trnsciSuccess);
    assert_int_equal(trnsciMemcpy(db, hb, nb * 4, trnsciMemcpyHostToDevice), trnsciSuccess);
    assert_int_equal(trnsciMemcpy(dc, hc, nc * 4, trnsciMemcpyHostToDevice), trnsciSuccess);
    trnblasHandle_t h;
    assert_int_equal(trnblasCreate(&h), TRNBLAS_STATUS_SUCCESS);
    const trnsciDataType_t t = g->cplx ? TRNSCI_C_32F : TRNSCI_R_32F;
    assert_int_equal(trnblasGemmStridedBatchedEx(h, g->ta, g->tb, g->m, g->n, g->k, g->alpha, da, t,
                                                 ar, (long long)sa, db, t, br, (long long)sb,
                                                 g->beta, dc, t, g->m, (long long)sc, g->batch,
                                                 compute_of(g->md), TRNBLAS_GEMM_DEFAULT),
                     TRNBLAS_STATUS_SUCCESS);
    trnsciError_t st = trnsciDeviceSynchronize();
    if (st == trnsciSuccess)
        st = trnsciMemcpy(out, dc, nc * 4, trnsciMemcpyDeviceToHost);
    if (st != trnsciSuccess)
        snprintf(last_error, sizeof(last_error), "%s", trnsciGetLastErrorMessage());
    const double u = ldexp(1, -24);
    const double unit = g->md == MODE_BF16     ? ldexp(1, -7) + ldexp(1, -16)
                        : g->md == MODE_BF16X3 ? 3 * ldexp(1, -16)
                                               : 0;
    const double per = (unit + (g->k + 4) * u) * (g->cplx ? 2 : 1);
    const double complex alpha = g->alpha[0] + (g->cplx ? g->alpha[1] : 0) * I;
    const double complex beta = g->beta[0] + (g->cplx ? g->beta[1] : 0) * I;
    double worst = 0;
    for (int b = 0; st == trnsciSuccess && b < g->batch; b++)
        for (int j = 0; j < g->n; j++)
            for (int i = 0; i < g->m; i++) {
                const float *A = ha + (size_t)b * sa * p, *B = hb + (size_t)b * sb * p;
                const float *C = hc + (size_t)b * sc * p, *D = out + (size_t)b * sc * p;
                double complex s = 0;
                double mag = 0;
                for (int l = 0; l < g->k; l++) {
                    const double complex x = op_elem(A, ar, g->ta, g->cplx, i, l);
                    const double complex y = op_elem(B, br, g->tb, g->cplx, l, j);
                    s += x * y;
                    mag += abs1(x) * abs1(y);
                }
                const size_t e = (size_t)i + (size_t)j * g->m;
                const double complex c = g->cplx ? C[2 * e] + C[2 * e + 1] * I : C[e];
                const double complex want = alpha * s + beta * c;
                const double complex got = g->cplx ? D[2 * e] + D[2 * e + 1] * I : D[e];
                const double bound = per * (abs1(alpha) * mag + abs1(beta) * abs1(c));
                const double err = abs1(got - want);
                if (!(err <= bound))
                    fail_msg("%s %dx%dx%d batch %d mode %d: element (%d,%d) of %d is off by %g, "
                             "bound %g",
                             g->cplx ? "C" : "S", g->m, g->n, g->k, g->batch, (int)g->md, i, j, b,
                             err, bound);
                if (bound > 0 && err / bound > worst)
                    worst = err / bound;
            }
    trnblasDestroy(h);
    trnsciFree(da);
    trnsciFree(db);
    trnsciFree(dc);
    free(ha);
    free(hb);
    free(hc);
    free(last_out);
    last_out = out;
    last_out_n = nc;
    return st;
}

/* run_case that must succeed. */
static void run_ok(const gemm_case *g, unsigned seed) {
    const trnsciError_t st = run_case(g, seed);
    if (st != trnsciSuccess)
        fail_msg("GEMM %dx%dx%d failed (%d): %s", g->m, g->n, g->k, (int)st, last_error);
}

static const gemm_case CASES[] = {
    {0, TRNBLAS_OP_N, TRNBLAS_OP_N, 130, 70, 257, 1, MODE_FP32, {1.5f, 0}, {-0.5f, 0}},
    {0, TRNBLAS_OP_T, TRNBLAS_OP_N, 20, 30, 140, 1, MODE_BF16X3, {1, 0}, {0, 0}},
    {0, TRNBLAS_OP_N, TRNBLAS_OP_T, 64, 48, 96, 3, MODE_BF16, {0.75f, 0}, {1, 0}},
    {1, TRNBLAS_OP_C, TRNBLAS_OP_T, 40, 20, 130, 1, MODE_FP32, {1, -0.5f}, {0.25f, 1}},
    {1, TRNBLAS_OP_N, TRNBLAS_OP_N, 17, 9, 33, 2, MODE_BF16X3, {0.5f, 0.5f}, {0, 0}},
};

static void test_gemms_run_on_neuroncores(void **state) {
    suite *s = *state;
    assert_int_equal(start(s), 0);
    for (size_t i = 0; i < sizeof(CASES) / sizeof(CASES[0]); i++)
        run_ok(&CASES[i], 17u + (unsigned)i);
    /* One compile per shape and mode. */
    assert_true(metric(s, "trnscid_neff_compiles_total") ==
                (double)(sizeof(CASES) / sizeof(CASES[0])));
    assert_int_equal(store_count(s, ".neff"), (int)(sizeof(CASES) / sizeof(CASES[0])));
    assert_true(metric(s, "trnscid_ops_placed_total{placement=\"neuroncore\"}") ==
                (double)(sizeof(CASES) / sizeof(CASES[0])));

    /* They ran on the simulated cores: an execution error injected there
     * fails one op per executor (each process reads the fault file), with
     * the runtime's status; then the cores run again. */
    arm_faults(s, "exec_error core=0 count=1\nexec_error core=1 count=1\n");
    int failed = 0, ok = 0;
    for (int round = 0; round < 8; round++) {
        const trnsciError_t st = run_case(&CASES[0], 99u);
        if (st == trnsciSuccess) {
            ok++;
            continue;
        }
        failed++;
        assert_int_equal(st, trnsciErrorLaunchFailure);
        const char *m = last_error;
        if (!strstr(m, "NeuronCore") || !strstr(m, "NRT_EXEC_COMPLETED_WITH_ERR"))
            fail_msg("expected the runtime's status and the core, got \"%s\"", m);
    }
    if (failed < 1 || failed > NCORES)
        fail_msg("%d of 8 GEMMs failed, not 1 to %d", failed, NCORES);
    assert_int_equal(run_case(&CASES[0], 100u), trnsciSuccess);
    stop(s);
}

/* ---- one GEMM over several cores ---------------------------------------------- */

/* Big enough (at --neuron-split-min-mflop 1) to be split over both cores:
 * by C's columns (300 = 2 x 150; 301 = 151 + 150 with a padded part), and
 * a strided batch of 3 by matrices (2 + 1 padded). */
static const gemm_case SPLIT_CASES[] = {
    {0, TRNBLAS_OP_N, TRNBLAS_OP_T, 96, 301, 200, 1, MODE_FP32, {1.25f, 0}, {-1, 0}},
    {0, TRNBLAS_OP_T, TRNBLAS_OP_N, 50, 301, 130, 1, MODE_BF16, {1, 0}, {0, 0}},
    {1, TRNBLAS_OP_C, TRNBLAS_OP_N, 40, 260, 64, 1, MODE_BF16X3, {0.5f, 1}, {1, -0.25f}},
    {0, TRNBLAS_OP_N, TRNBLAS_OP_N, 64, 64, 160, 3, MODE_FP32, {1, 0}, {0.5f, 0}},
};
#define NSPLIT (sizeof(SPLIT_CASES) / sizeof(SPLIT_CASES[0]))

/* Each case's result on a daemon started with extra, into outs. */
static void run_split_cases(suite *s, const char *extra, float *outs[NSPLIT]) {
    assert_int_equal(start_with(s, extra), 0);
    for (size_t i = 0; i < NSPLIT; i++) {
        run_ok(&SPLIT_CASES[i], 41u + (unsigned)i);
        outs[i] = malloc(last_out_n * sizeof(float));
        assert_non_null(outs[i]);
        memcpy(outs[i], last_out, last_out_n * sizeof(float));
    }
}

static void test_gemm_split_over_cores(void **state) {
    suite *s = *state;
    float *split[NSPLIT], *whole[NSPLIT];
    run_split_cases(s, "--neuron-split-min-mflop 1", split);
    /* Each op ran as parts, from one NEFF of a part's shape. */
    trnsciPlanInfo plans[8];
    int count = 0;
    assert_int_equal(trnsciDaemonGetPlans(s->d.unix_addr, plans, 8, &count, NULL), trnsciSuccess);
    assert_int_equal(count, (int)NSPLIT);
    static const char *const keys[] = {
        "program gemm dtype=f32 mode=fp32 m=96 n=151 k=200 batch=1 layout=cm ta=n tb=t",
        "program gemm dtype=f32 mode=bf16 m=50 n=151 k=130 batch=1 layout=cm ta=t tb=n",
        "program gemm dtype=c32 mode=bf16x3 m=40 n=130 k=64 batch=1",
        "program gemm dtype=f32 mode=fp32 m=64 n=64 k=160 batch=2 layout=cm ta=n tb=n",
    };
    for (size_t i = 0; i < NSPLIT; i++) {
        int j = 0;
        while (j < count && strcmp(plans[j].key, keys[i]) != 0)
            j++;
        if (j == count)
            fail_msg("no plan %s", keys[i]);
        /* Which cores took the parts is the scheduler's choice (an idle
         * worker may take both); that they ran as parts is in the key. */
        if (strncmp(plans[j].state, "ready; ran on cores ", 20) != 0)
            fail_msg("%s: state \"%s\"", keys[i], plans[j].state);
    }
    assert_true(metric(s, "trnscid_ops_placed_total{placement=\"neuroncore\"}") == (double)NSPLIT);
    stop(s);
    /* The split changes nothing in the result: each element is computed by
     * one core as the whole op's program computes it. Also with one
     * runtime driving both cores (--executors off), where the parts that
     * read the same A bind a copy of it on each core at once. */
    float *shared[NSPLIT];
    run_split_cases(s, "--neuron-split-min-mflop 1 --executors off", shared);
    stop(s);
    run_split_cases(s, "--neuron-split-min-mflop 0", whole);
    stop(s);
    for (size_t i = 0; i < NSPLIT; i++) {
        const gemm_case *g = &SPLIT_CASES[i];
        const size_t n = (size_t)g->m * g->n * g->batch * (g->cplx ? 2 : 1);
        if (memcmp(split[i], whole[i], n * sizeof(float)) != 0)
            fail_msg("case %zu: split and whole results differ", i);
        if (memcmp(shared[i], whole[i], n * sizeof(float)) != 0)
            fail_msg("case %zu: split without executors and whole results differ", i);
        free(split[i]);
        free(shared[i]);
        free(whole[i]);
    }
}

/* ---- DMA overlapped with execution ------------------------------------------- */

/* What the simulator's NRTSIM_TRACE file says: moves to or from a core's
 * memory that ran while the same process's execution ran on that core (of
 * them, writes to the core), and the moves to the cores (writes: count and
 * bytes). */
typedef struct trace_summary {
    int execs, moves, overlapping, writes_overlapping;
    int writes;
    unsigned long long written, read; /* bytes of the writes to cores, of the reads */
} trace_summary;

static trace_summary read_trace(const char *path) {
    trace_summary t = {0, 0, 0, 0, 0, 0, 0};
    enum { MAX = 4096 };
    static struct {
        int exec, write, core, pid;
        unsigned long long b, e;
    } ev[MAX];
    int n = 0;
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char kind[8];
    size_t bytes;
    while (n < MAX && fscanf(f, "%7s %d %llu %llu %d %zu", kind, &ev[n].core, &ev[n].b, &ev[n].e,
                             &ev[n].pid, &bytes) == 6) {
        ev[n].exec = strcmp(kind, "exec") == 0;
        ev[n].write = strcmp(kind, "write") == 0;
        if (ev[n].write) {
            t.writes++;
            t.written += bytes;
        }
        if (strcmp(kind, "read") == 0)
            t.read += bytes;
        t.execs += ev[n].exec;
        t.moves += !ev[n].exec;
        n++;
    }
    fclose(f);
    for (int i = 0; i < n; i++)
        for (int j = 0; !ev[i].exec && j < n; j++)
            if (ev[j].exec && ev[j].core == ev[i].core && ev[j].pid == ev[i].pid &&
                ev[i].b < ev[j].e && ev[i].e > ev[j].b) {
                t.overlapping++;
                t.writes_overlapping += ev[i].write;
                break;
            }
    return t;
}

/* A strided batch of 8 256x256x256 SGEMMs moves 6 MiB of operands: it runs
 * as 4 executions of 2 matrices (TRN_NGEMM_PIPELINE_MIN_BYTES), each
 * execution's inputs moved while the one before runs, under a timing model
 * slow enough that every move and execution takes milliseconds. */
/* One strided batch of SGEMMs on matrices inside larger ones: op(A) = A
 * (LM x LK), op(B) = B^T (B is LN x LK), each leading dimension `pad`
 * rows past the matrix's own, and C's matrices `gap` elements further
 * apart than back to back. Rows past each matrix's own hold NaN in A and
 * B, which must never be read, and a sentinel in C, which must never be
 * written. Checked against double with the bound (K + 4) u (|alpha| sum
 * |a||b| + |beta c|); returns the bytes moved to the cores and back and
 * the host seconds spent packing (metrics). */
#define LM 70
#define LN 50
#define LK 90
#define LBATCH 2
typedef struct in_place_run {
    double to_cores, from_cores, pack_s;
} in_place_run;
static in_place_run run_in_place(suite *s, int pad, int gap) {
    const size_t lda = LM + pad, ldb = LN + pad, ldc = LM + pad;
    const size_t sa = lda * LK, sb = ldb * LK, stride_c = ldc * LN + gap;
    const size_t na = sa * LBATCH, nb = sb * LBATCH, nc = stride_c * LBATCH;
    float *ha = malloc(na * 4), *hb = malloc(nb * 4), *hc = malloc(nc * 4), *out = malloc(nc * 4);
    assert_true(ha && hb && hc && out);
    unsigned seed = 5;
    for (size_t i = 0; i < na; i++)
        ha[i] = i % lda < LM ? urand(&seed) : NAN;
    for (size_t i = 0; i < nb; i++)
        hb[i] = i % ldb < LN ? urand(&seed) : NAN;
    for (size_t i = 0; i < nc; i++) {
        const size_t in = i % stride_c;
        hc[i] = in < ldc * LN && in % ldc < LM ? urand(&seed) : 12345.0f;
    }
    void *da, *db, *dc;
    assert_int_equal(trnsciMalloc(&da, na * 4), trnsciSuccess);
    assert_int_equal(trnsciMalloc(&db, nb * 4), trnsciSuccess);
    assert_int_equal(trnsciMalloc(&dc, nc * 4), trnsciSuccess);
    assert_int_equal(trnsciMemcpy(da, ha, na * 4, trnsciMemcpyHostToDevice), trnsciSuccess);
    assert_int_equal(trnsciMemcpy(db, hb, nb * 4, trnsciMemcpyHostToDevice), trnsciSuccess);
    assert_int_equal(trnsciMemcpy(dc, hc, nc * 4, trnsciMemcpyHostToDevice), trnsciSuccess);
    const double to0 = metric(s, "trnscid_neuron_bytes_total{direction=\"to_cores\"}"),
                 from0 = metric(s, "trnscid_neuron_bytes_total{direction=\"from_cores\"}"),
                 pack0 = metric(s, "trnscid_neuron_pack_seconds_total");
    trnblasHandle_t h;
    assert_int_equal(trnblasCreate(&h), TRNBLAS_STATUS_SUCCESS);
    const float alpha = 1.5f, beta = -0.5f;
    assert_int_equal(trnblasSgemmStridedBatched(h, TRNBLAS_OP_N, TRNBLAS_OP_T, LM, LN, LK, &alpha,
                                                da, (int)lda, (long long)sa, db, (int)ldb,
                                                (long long)sb, &beta, dc, (int)ldc,
                                                (long long)stride_c, LBATCH),
                     TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(trnsciDeviceSynchronize(), trnsciSuccess);
    assert_int_equal(trnsciMemcpy(out, dc, nc * 4, trnsciMemcpyDeviceToHost), trnsciSuccess);
    const in_place_run r = {metric(s, "trnscid_neuron_bytes_total{direction=\"to_cores\"}") - to0,
                            metric(s, "trnscid_neuron_bytes_total{direction=\"from_cores\"}") -
                                from0,
                            metric(s, "trnscid_neuron_pack_seconds_total") - pack0};
    const double u = ldexp(1, -24);
    for (size_t e = 0; e < nc; e++) {
        const size_t b = e / stride_c, in = e % stride_c, i = in % ldc, j = in / ldc;
        if (in >= ldc * LN || i >= LM) {
            if (memcmp(&out[e], &hc[e], 4) != 0)
                fail_msg("pad %d gap %d: C's element %zu, outside the matrices, was written", pad,
                         gap, e);
            continue;
        }
        double want = 0, mag = 0;
        for (size_t l = 0; l < LK; l++) {
            const double x = ha[b * sa + i + l * lda], y = hb[b * sb + j + l * ldb];
            want += x * y;
            mag += fabs(x * y);
        }
        want = alpha * want + beta * (double)hc[e];
        const double bound = (LK + 4) * u * (fabs(alpha) * mag + fabs(beta * hc[e]));
        if (!(fabs(out[e] - want) <= bound))
            fail_msg("pad %d gap %d: (%zu,%zu) of %zu is %g, not %g (bound %g)", pad, gap, i, j, b,
                     out[e], want, bound);
    }
    trnblasDestroy(h);
    trnsciFree(da);
    trnsciFree(db);
    trnsciFree(dc);
    free(ha);
    free(hb);
    free(hc);
    free(out);
    return r;
}

/* A real GEMM runs the column-major program (program.h, layout=cm), one
 * NEFF whatever the leading dimensions and strides: matrices laid out as
 * the program's tensors (leading dimension = rows, a batch back to back)
 * move as they lie, with nothing packed; others are gathered column by
 * column. Every way moves exactly the matrices' elements, gives the right
 * result and leaves every byte outside the matrices alone. */
static void test_gemm_reads_operands_as_they_lie(void **state) {
    suite *s = *state;
    assert_int_equal(start_with(s, "--neuron-split-min-mflop 0"), 0);
    const double elements = 4.0 * LBATCH * (LM * LK + LK * LN + LM * LN);
    const in_place_run tight = run_in_place(s, 0, 0), padded = run_in_place(s, 5, 0),
                       gapped = run_in_place(s, 5, 7);
    const in_place_run *runs[] = {&tight, &padded, &gapped};
    for (int i = 0; i < 3; i++)
        if (runs[i]->to_cores != elements + 8 || runs[i]->from_cores != 4.0 * LBATCH * LM * LN)
            fail_msg("run %d: %.0f bytes to the core, %.0f back; want %.0f and %.0f", i,
                     runs[i]->to_cores, runs[i]->from_cores, elements + 8, 4.0 * LBATCH * LM * LN);
    /* Laid out as the tensors: not one byte packed or gathered. */
    assert_true(tight.pack_s == 0);
    trnsciPlanInfo plans[4];
    int count = 0;
    assert_int_equal(trnsciDaemonGetPlans(s->d.unix_addr, plans, 4, &count, NULL), trnsciSuccess);
    assert_int_equal(count, 1);
    assert_string_equal(plans[0].key, "program gemm dtype=f32 mode=fp32 m=70 n=50 k=90 batch=2 "
                                      "layout=cm ta=n tb=t");
    stop(s);
    /* --neuron-in-place off: the packed program, and the same bytes. */
    assert_int_equal(start_with(s, "--neuron-split-min-mflop 0 --neuron-in-place off"), 0);
    const in_place_run packed = run_in_place(s, 0, 0);
    if (packed.to_cores != elements + 8)
        fail_msg("packed: %.0f bytes to the core, want %.0f", packed.to_cores, elements + 8);
    assert_int_equal(trnsciDaemonGetPlans(s->d.unix_addr, plans, 4, &count, NULL), trnsciSuccess);
    int found = 0;
    for (int i = 0; i < count; i++)
        found |=
            strcmp(plans[i].key, "program gemm dtype=f32 mode=fp32 m=70 n=50 k=90 batch=2") == 0;
    assert_true(found);
    stop(s);
}

static const gemm_case PIPELINED = {0, TRNBLAS_OP_N, TRNBLAS_OP_T, 256,      256, 256,
                                    8, MODE_FP32,    {1, 0},       {0.5f, 0}};

static void test_dma_overlaps_execution(void **state) {
    suite *s = *state;
    char trace[300];
    snprintf(trace, sizeof(trace), "%s/trace", s->locks);
    setenv("NRTSIM_TRACE", trace, 1);
    setenv("NRTSIM_DMA_GBPS", "0.2", 1); /* 512 KiB tensor: 2.6 ms */
    setenv("NRTSIM_GFLOPS", "5", 1);     /* 2 x 33.5 MFLOP: 13 ms */
    assert_int_equal(start_with(s, "--neuron-split-min-mflop 0"), 0);
    run_ok(&PIPELINED, 5u);
    trnsciPlanInfo plans[4];
    int count = 0;
    assert_int_equal(trnsciDaemonGetPlans(s->d.unix_addr, plans, 4, &count, NULL), trnsciSuccess);
    assert_int_equal(count, 1);
    assert_string_equal(plans[0].key, "program gemm dtype=f32 mode=fp32 m=256 n=256 k=256 batch=2 "
                                      "layout=cm ta=n tb=t");
    stop(s);
    const trace_summary t = read_trace(trace);
    /* 4 executions; each moves at, b, c and scal in and d out. Moves ran
     * during executions (with one tensor set they never can: the thread
     * that executes also moves). */
    assert_int_equal(t.execs, 4);
    assert_int_equal(t.moves, 4 * 5);
    if (t.overlapping < 1)
        fail_msg("no move overlapped an execution (%d moves, %d executions)", t.moves, t.execs);

    /* With device memory for one tensor set only, the executions run one
     * after the other, right. */
    unlink(trace);
    setenv("NRTSIM_HBM_MB", "5", 1); /* the model (2 MiB of its own) and one set */
    assert_int_equal(start_with(s, "--neuron-split-min-mflop 0"), 0);
    run_ok(&PIPELINED, 6u);
    stop(s);
    const trace_summary one = read_trace(trace);
    assert_int_equal(one.execs, 4);
    assert_int_equal(one.overlapping, 0);
    unsetenv("NRTSIM_HBM_MB");
    unsetenv("NRTSIM_TRACE");
    unsetenv("NRTSIM_DMA_GBPS");
    unsetenv("NRTSIM_GFLOPS");
}

/* A program whose inputs were bound to the core's copies of its operands
 * (PIPELINED's shape with a batch of 2: one execution, all of a, b and c
 * bound) then runs PIPELINED's batch of 8 as four pipelined executions:
 * the DMA queue writes the sets' own tensors, which the sets name again
 * first, and every result is right; and back. One program throughout. */
static void test_core_copies_then_pipelined(void **state) {
    suite *s = *state;
    setenv("NRTSIM_CORES", "1", 1);
    assert_int_equal(start_with(s, "--neuron-split-min-mflop 0"), 0);
    gemm_case two = PIPELINED;
    two.batch = 2;
    const double tensor = 2.0 * 256 * 256 * 4; /* a, b or c of 2 matrices */
    for (unsigned round = 0; round < 2; round++) {
        const double b0 = metric(s, "trnscid_neuron_bytes_bound_total");
        run_ok(&two, 40u + round);
        const double bound = metric(s, "trnscid_neuron_bytes_bound_total") - b0;
        if (bound != 3 * tensor)
            fail_msg("round %u: %.0f bytes bound from core copies, not a, b and c (%.0f)", round,
                     bound, 3 * tensor);
        run_ok(&PIPELINED, 50u + round);
        assert_true(metric(s, "trnscid_neuron_bytes_bound_total") - b0 == bound);
    }
    trnsciPlanInfo plans[4];
    int count = 0;
    assert_int_equal(trnsciDaemonGetPlans(s->d.unix_addr, plans, 4, &count, NULL), trnsciSuccess);
    assert_int_equal(count, 1);
    stop(s);
    unsetenv("NRTSIM_CORES");
}

/* ---- operands resident in a core's memory ------------------------------------ */

#define RN 128 /* RN x RN x RN SGEMMs: each operand tensor is RN*RN*4 bytes */
#define RT ((unsigned long long)RN * RN * 4)
#define RSCAL 8ull /* alpha and beta */

/* The bytes written to the cores since the last call (the trace grows). */
static unsigned long long written_since(const char *trace, unsigned long long *seen) {
    const unsigned long long now = read_trace(trace).written, d = now - *seen;
    *seen = now;
    return d;
}

/* Y = A B of RN x RN column-major matrices, checked against double with
 * the bound (unit + (k + 4) u) sum_l |a_il||b_lj| (beta 0): unit 0 for
 * FP32, 3·2^-16 for BF16x3 (the bounds at the top of this file). */
static void check_product_mode(const float *a, const float *b, const float *y, double unit,
                               const char *what) {
    const double u = ldexp(1, -24);
    for (int j = 0; j < RN; j++)
        for (int i = 0; i < RN; i++) {
            double want = 0, mag = 0;
            for (int l = 0; l < RN; l++) {
                want += (double)a[i + l * RN] * b[l + j * RN];
                mag += fabs((double)a[i + l * RN] * b[l + j * RN]);
            }
            const double err = fabs(y[i + j * RN] - want), bound = (unit + (RN + 4) * u) * mag;
            if (!(err <= bound))
                fail_msg("%s: element (%d,%d) is off by %g (bound %g)", what, i, j, err, bound);
        }
}

static void check_product(const float *a, const float *b, const float *y, const char *what) {
    check_product_mode(a, b, y, 0, what);
}

static void fill(float *x, unsigned seed) {
    for (int i = 0; i < RN * RN; i++)
        x[i] = urand(&seed);
}

static void sgemm(trnblasHandle_t h, const void *a, const void *b, void *y) {
    const float one = 1, zero = 0;
    assert_int_equal(
        trnblasSgemm(h, TRNBLAS_OP_N, TRNBLAS_OP_N, RN, RN, RN, &one, a, RN, b, RN, &zero, y, RN),
        TRNBLAS_STATUS_SUCCESS);
}

/* Runs y = a b, waits, fetches y into out and checks it against ha hb. */
static void sgemm_checked(trnblasHandle_t h, void *a, void *b, void *y, const float *ha,
                          const float *hb, float *out, const char *what) {
    sgemm(h, a, b, y);
    assert_int_equal(trnsciDeviceSynchronize(), trnsciSuccess);
    assert_int_equal(trnsciMemcpy(out, y, RT, trnsciMemcpyDeviceToHost), trnsciSuccess);
    check_product(ha, hb, out, what);
}

/* The daemon's traffic metrics agree with the simulator's trace (every
 * byte written to and read from a core since the daemon started); some
 * operands were kept when `kept` (resident operands on), none else. */
static void check_traffic_metrics(const suite *s, const char *trace, int kept) {
    const trace_summary t = read_trace(trace);
    assert_true(metric(s, "trnscid_neuron_bytes_total{direction=\"to_cores\"}") ==
                (double)t.written);
    assert_true(metric(s, "trnscid_neuron_bytes_total{direction=\"from_cores\"}") ==
                (double)t.read);
    const double k = metric(s, "trnscid_neuron_bytes_kept_total");
    if (kept ? k < 2.0 * RT : k != 0)
        fail_msg("%.0f bytes kept (resident operands %s)", k, kept ? "on" : "off");
}

/* A GEMM's operands stay in the core's memory and are not moved again
 * while they have not changed; every way of changing them moves them again
 * and the result is that of the new contents: a Write, a copy op, a memset
 * op, a GEMM writing the operand (also inside one chain of ops, with no
 * synchronize between), an op whose writes are not known (everything moves
 * again), a freed and reallocated buffer. With --neuron-resident off every
 * operand moves every time. One core, so every GEMM runs on it. */
static void test_operands_stay_resident(void **state) {
    suite *s = *state;
    char trace[300];
    snprintf(trace, sizeof(trace), "%s/trace", s->locks);
    setenv("NRTSIM_TRACE", trace, 1);
    setenv("NRTSIM_CORES", "1", 1);
    assert_int_equal(start(s), 0);
    float *ha = malloc(RT), *hb = malloc(RT), *hz = malloc(RT), *hx = malloc(RT), *out = malloc(RT),
          *mid = malloc(RT);
    assert_true(ha && hb && hz && hx && out && mid);
    fill(ha, 1);
    fill(hb, 2);
    fill(hz, 3);
    fill(hx, 4);
    void *a, *b, *z, *x, *y;
    assert_int_equal(trnsciMalloc(&a, RT), trnsciSuccess);
    assert_int_equal(trnsciMalloc(&b, RT), trnsciSuccess);
    assert_int_equal(trnsciMalloc(&z, RT), trnsciSuccess);
    assert_int_equal(trnsciMalloc(&x, RT), trnsciSuccess);
    assert_int_equal(trnsciMalloc(&y, RT), trnsciSuccess);
    assert_int_equal(trnsciMemcpy(a, ha, RT, trnsciMemcpyHostToDevice), trnsciSuccess);
    assert_int_equal(trnsciMemcpy(b, hb, RT, trnsciMemcpyHostToDevice), trnsciSuccess);
    assert_int_equal(trnsciMemcpy(z, hz, RT, trnsciMemcpyHostToDevice), trnsciSuccess);
    assert_int_equal(trnsciMemcpy(x, hx, RT, trnsciMemcpyHostToDevice), trnsciSuccess);
    trnblasHandle_t h;
    assert_int_equal(trnblasCreate(&h), TRNBLAS_STATUS_SUCCESS);
    unsigned long long seen = 0;

    sgemm_checked(h, a, b, y, ha, hb, out, "first");
    assert_int_equal(written_since(trace, &seen), 2 * RT + RSCAL);
    sgemm_checked(h, a, b, y, ha, hb, out, "again");
    assert_int_equal(written_since(trace, &seen), RSCAL); /* only alpha and beta */

    /* A Write of A. */
    fill(ha, 5);
    assert_int_equal(trnsciMemcpy(a, ha, RT, trnsciMemcpyHostToDevice), trnsciSuccess);
    sgemm_checked(h, a, b, y, ha, hb, out, "after a Write of A");
    assert_int_equal(written_since(trace, &seen), RT + RSCAL);

    /* A copy op into B (Z's bytes). */
    assert_int_equal(trnsciMemcpy(b, z, RT, trnsciMemcpyDeviceToDevice), trnsciSuccess);
    sgemm_checked(h, a, b, y, ha, hz, out, "after a copy into B");
    assert_int_equal(written_since(trace, &seen), RT + RSCAL);
    memcpy(hb, hz, RT);

    /* An op whose writes are not known here (a scal of X): all move. */
    const float two = 2;
    assert_int_equal(trnblasSscal(h, RN * RN, &two, x, 1), TRNBLAS_STATUS_SUCCESS);
    sgemm_checked(h, a, b, y, ha, hb, out, "after a scal elsewhere");
    assert_int_equal(written_since(trace, &seen), 2 * RT + RSCAL);

    /* In one run of queued ops: Y = A B (B resident), B = A Z (a GEMM
     * writing B, in BF16x3: another program, so B stays in the first one's
     * tensor), Y = A B: the last must read the new B. */
    sgemm(h, a, b, y);
    const float one = 1, zero = 0;
    assert_int_equal(trnblasGemmEx(h, TRNBLAS_OP_N, TRNBLAS_OP_N, RN, RN, RN, &one, a, TRNSCI_R_32F,
                                   RN, z, TRNSCI_R_32F, RN, &zero, b, TRNSCI_R_32F, RN,
                                   TRNBLAS_COMPUTE_32F_BF16X3, TRNBLAS_GEMM_DEFAULT),
                     TRNBLAS_STATUS_SUCCESS);
    sgemm(h, a, b, y);
    assert_int_equal(trnsciDeviceSynchronize(), trnsciSuccess);
    assert_int_equal(trnsciMemcpy(mid, b, RT, trnsciMemcpyDeviceToHost), trnsciSuccess);
    check_product_mode(ha, hz, mid, 3 * ldexp(1, -16), "B = A Z");
    assert_int_equal(trnsciMemcpy(out, y, RT, trnsciMemcpyDeviceToHost), trnsciSuccess);
    check_product(ha, mid, out, "Y = A B after B = A Z, queued together");
    (void)written_since(trace, &seen);

    /* A memset op of B: Y must be exactly zero. */
    assert_int_equal(trnsciMemset(b, 0, RT), trnsciSuccess);
    sgemm(h, a, b, y);
    assert_int_equal(trnsciDeviceSynchronize(), trnsciSuccess);
    assert_int_equal(trnsciMemcpy(out, y, RT, trnsciMemcpyDeviceToHost), trnsciSuccess);
    for (int i = 0; i < RN * RN; i++)
        if (out[i] != 0)
            fail_msg("after a memset of B: element %d is %g, not 0", i, out[i]);
    assert_int_equal(written_since(trace, &seen), RT + RSCAL);

    /* A freed and reallocated A, perhaps at the same address. */
    assert_int_equal(trnsciMemcpy(b, hb, RT, trnsciMemcpyHostToDevice), trnsciSuccess);
    sgemm_checked(h, a, b, y, ha, hb, out, "before the new A");
    assert_int_equal(trnsciFree(a), trnsciSuccess);
    assert_int_equal(trnsciMalloc(&a, RT), trnsciSuccess);
    fill(ha, 6);
    assert_int_equal(trnsciMemcpy(a, ha, RT, trnsciMemcpyHostToDevice), trnsciSuccess);
    sgemm_checked(h, a, b, y, ha, hb, out, "with a new A");

    /* Pinned host memory as A: the program writes it directly, without the
     * daemon, so it is moved every time. */
    float *pinned;
    assert_int_equal(trnsciMallocHost((void **)&pinned, RT), trnsciSuccess);
    memcpy(pinned, ha, RT);
    (void)written_since(trace, &seen);
    sgemm_checked(h, pinned, b, y, ha, hb, out, "pinned A");
    fill(ha, 7);
    memcpy(pinned, ha, RT);
    sgemm_checked(h, pinned, b, y, ha, hb, out, "pinned A written by the program");
    assert_int_equal(written_since(trace, &seen), 2 * (RT + RSCAL)); /* B stayed */
    assert_int_equal(trnsciFreeHost(pinned), trnsciSuccess);
    check_traffic_metrics(s, trace, 1);

    trnblasDestroy(h);
    trnsciFree(a);
    trnsciFree(b);
    trnsciFree(z);
    trnsciFree(x);
    trnsciFree(y);
    stop(s);

    /* Off: both operands move every time. */
    unlink(trace);
    seen = 0;
    assert_int_equal(start_with(s, "--neuron-resident off"), 0);
    assert_int_equal(trnblasCreate(&h), TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(trnsciMalloc(&a, RT), trnsciSuccess);
    assert_int_equal(trnsciMalloc(&b, RT), trnsciSuccess);
    assert_int_equal(trnsciMalloc(&y, RT), trnsciSuccess);
    assert_int_equal(trnsciMemcpy(a, ha, RT, trnsciMemcpyHostToDevice), trnsciSuccess);
    assert_int_equal(trnsciMemcpy(b, hb, RT, trnsciMemcpyHostToDevice), trnsciSuccess);
    sgemm_checked(h, a, b, y, ha, hb, out, "off, first");
    assert_int_equal(written_since(trace, &seen), 2 * RT + RSCAL);
    sgemm_checked(h, a, b, y, ha, hb, out, "off, again");
    assert_int_equal(written_since(trace, &seen), 2 * RT + RSCAL);
    check_traffic_metrics(s, trace, 0);
    trnblasDestroy(h);
    stop(s);
    free(ha);
    free(hb);
    free(hz);
    free(hx);
    free(out);
    free(mid);
    unsetenv("NRTSIM_TRACE");
}

/* QM x QN x QK SGEMMs of their own operands, queued back to back: y[i] =
 * a[i] b[i], then y[NK] = a[0] y[0][:QK rows] (reads what an op of the same
 * program wrote, queued right behind it; its B, of leading dimension QM, is
 * gathered column by column into the program's tensor). Checked against double; returns
 * the trace's summary. op(A) is 1 MiB: enough for a move ahead
 * (TRN_NGEMM_PIPELINE_MIN_BYTES). */
#define QM 1024
#define QN 64
#define QK 256
#define NK 6
/* out = A B (QM x QN, A QM x QK, B with leading dimension ldb), checked on
 * a sample of elements against double with the bound (QK + 4) u
 * sum_l |a_il||b_lj|. */
static void check_q_product(const float *A, const float *B, int ldb, const float *out,
                            const char *what) {
    const double u = ldexp(1, -24);
    for (int c = 0; c < QN; c += 7)
        for (int r = 0; r < QM; r += 3) {
            double want = 0, mag = 0;
            for (int l = 0; l < QK; l++) {
                want += (double)A[r + (size_t)l * QM] * B[l + (size_t)c * ldb];
                mag += fabs((double)A[r + (size_t)l * QM] * B[l + (size_t)c * ldb]);
            }
            const double err = fabs(out[r + (size_t)c * QM] - want), bound = (QK + 4) * u * mag;
            if (!(err <= bound))
                fail_msg("%s: element (%d,%d) is off by %g (bound %g)", what, r, c, err, bound);
        }
}

static trace_summary run_queued_gemms(suite *s, const char *trace, const char *flags) {
    unlink(trace);
    assert_int_equal(start_with(s, flags), 0);
    const size_t na = (size_t)QM * QK, nb = (size_t)QK * QN, ny = (size_t)QM * QN;
    float *ha = malloc(NK * na * 4), *hb = malloc(NK * nb * 4), *out = malloc(ny * 4),
          *y0 = malloc(ny * 4);
    assert_true(ha && hb && out && y0);
    void *a[NK], *b[NK], *y[NK + 1];
    unsigned seed = 11;
    for (int i = 0; i < NK; i++) {
        for (size_t e = 0; e < na; e++)
            ha[i * na + e] = urand(&seed);
        for (size_t e = 0; e < nb; e++)
            hb[i * nb + e] = urand(&seed);
        assert_int_equal(trnsciMalloc(&a[i], na * 4), trnsciSuccess);
        assert_int_equal(trnsciMalloc(&b[i], nb * 4), trnsciSuccess);
        assert_int_equal(trnsciMalloc(&y[i], ny * 4), trnsciSuccess);
        assert_int_equal(trnsciMemcpy(a[i], ha + i * na, na * 4, trnsciMemcpyHostToDevice),
                         trnsciSuccess);
        assert_int_equal(trnsciMemcpy(b[i], hb + i * nb, nb * 4, trnsciMemcpyHostToDevice),
                         trnsciSuccess);
    }
    assert_int_equal(trnsciMalloc(&y[NK], ny * 4), trnsciSuccess);
    trnblasHandle_t h;
    assert_int_equal(trnblasCreate(&h), TRNBLAS_STATUS_SUCCESS);
    const float one = 1, zero = 0;
    /* The first call compiles and loads: on its own. */
    assert_int_equal(trnblasSgemm(h, TRNBLAS_OP_N, TRNBLAS_OP_N, QM, QN, QK, &one, a[0], QM, b[0],
                                  QK, &zero, y[0], QM),
                     TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(trnsciDeviceSynchronize(), trnsciSuccess);
    for (int i = 0; i <= NK; i++)
        assert_int_equal(trnblasSgemm(h, TRNBLAS_OP_N, TRNBLAS_OP_N, QM, QN, QK, &one,
                                      a[i < NK ? i : 0], QM, i < NK ? b[i] : y[0], i < NK ? QK : QM,
                                      &zero, y[i], QM),
                         TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(trnsciDeviceSynchronize(), trnsciSuccess);
    for (int i = 0; i <= NK; i++) {
        const float *A = ha + (size_t)(i < NK ? i : 0) * na, *B = i < NK ? hb + i * nb : y0;
        assert_int_equal(trnsciMemcpy(out, y[i], ny * 4, trnsciMemcpyDeviceToHost), trnsciSuccess);
        char what[64];
        snprintf(what, sizeof(what), "queued GEMM %d (%s)", i, flags);
        check_q_product(A, B, i < NK ? QK : QM, out, what);
        if (i == 0)
            memcpy(y0, out, ny * 4);
    }
    /* Each of the NK + 2 executions needs at, b and scal on the core: each
     * byte was either moved (also when moved ahead for it) or kept. */
    const double moved = metric(s, "trnscid_neuron_bytes_total{direction=\"to_cores\"}"),
                 kept = metric(s, "trnscid_neuron_bytes_kept_total"),
                 need = (double)(NK + 2) * (double)(na * 4 + nb * 4 + 8);
    if (moved + kept != need)
        fail_msg("%s: %.0f bytes moved and %.0f kept, for %.0f needed", flags, moved, kept, need);
    trnblasDestroy(h);
    for (int i = 0; i < NK; i++) {
        trnsciFree(a[i]);
        trnsciFree(b[i]);
        trnsciFree(y[i]);
    }
    trnsciFree(y[NK]);
    stop(s);
    free(ha);
    free(hb);
    free(out);
    free(y0);
    return read_trace(trace);
}

/* GEMMs queued back to back on one core run as chains, and the next one's
 * inputs move while the current one executes, also across chains (a
 * chain's peek at the op behind it): the trace shows writes to the core
 * during executions (with one execution per GEMM, a GEMM's own inputs all
 * move before it executes). Each move ahead writes at and b (the GEMM's
 * run writes alpha and beta). Of the 7 queued GEMMs, every one after the
 * first whose predecessor started after it was queued moves ahead: 6, or
 * 5 when the first started alone. Pairs without peeks would move 3 ahead
 * (6 writes), so at least 8 writes are asked. Without resident operands (no write clock) nothing
 * moves ahead. Every result is right, also the GEMM that reads what the
 * one before it wrote. */
static void test_next_inputs_move_during_execution(void **state) {
    suite *s = *state;
    char trace[300];
    snprintf(trace, sizeof(trace), "%s/trace", s->locks);
    setenv("NRTSIM_TRACE", trace, 1);
    setenv("NRTSIM_CORES", "1", 1);
    setenv("NRTSIM_DMA_GBPS", "0.5", 1); /* 1 MiB op(A): 2.1 ms */
    setenv("NRTSIM_GFLOPS", "5", 1);     /* 33.5 MFLOP: 6.7 ms */
    const trace_summary on = run_queued_gemms(s, trace, "");
    if (on.writes_overlapping < 8)
        fail_msg("%d writes to the core overlapped an execution (%d executions, %d writes)",
                 on.writes_overlapping, on.execs, on.writes);
    assert_int_equal(on.execs, NK + 2); /* a peek is not run */
    const trace_summary off = run_queued_gemms(s, trace, "--neuron-resident off");
    assert_int_equal(off.writes_overlapping, 0);
    assert_int_equal(off.execs, NK + 2);
    unsetenv("NRTSIM_TRACE");
    unsetenv("NRTSIM_DMA_GBPS");
    unsetenv("NRTSIM_GFLOPS");
}

/* Rule (docs/neuron.md, "Cost model"): the scheduler's estimates come from
 * what it measured. Under the simulator's timing model (dma_bytes_per_s,
 * and a GEMM that computes for at least compute_s), the move rate
 * placement assumes is no faster than the simulator moves (the nominal
 * rate is 16 GB/s), and the one program's estimate, in `trnsci plans`, is
 * at least its compute time (the nominal estimate is a NeuronCore's: under
 * 0.2 ms). Lower bounds only: the machine may be slower, never faster. */
static void check_cost_model(const suite *s, double dma_bytes_per_s, double compute_s) {
    const double rate = metric(s, "trnscid_neuron_move_bytes_per_second");
    if (!(rate > 0 && rate <= 1.01 * dma_bytes_per_s))
        fail_msg("placement assumes %.4g bytes/s; the simulator moves %.4g", rate, dma_bytes_per_s);
    trnsciPlanInfo plans[8];
    int count = 0;
    assert_int_equal(trnsciDaemonGetPlans(s->d.unix_addr, plans, 8, &count, NULL), trnsciSuccess);
    assert_int_equal(count, 1);
    const char *runs = strstr(plans[0].state, "; runs in ");
    double ms = 0;
    if (!runs || sscanf(runs, "; runs in %lf ms", &ms) != 1 || ms < 0.99e3 * compute_s)
        fail_msg("state \"%s\": the estimate is not the measured run time (at least %.3g ms)",
                 plans[0].state, compute_s * 1e3);
}

/* What one GEMM did with its operands: bytes moved to the core, copied on
 * it, and kept there (not moved). */
typedef struct traffic {
    double moved, copied, kept;
} traffic;

static traffic traffic_now(const suite *s) {
    return (traffic){metric(s, "trnscid_neuron_bytes_total{direction=\"to_cores\"}"),
                     metric(s, "trnscid_neuron_bytes_copied_on_core_total"),
                     metric(s, "trnscid_neuron_bytes_kept_total")};
}

/* W (CM x CK) times X of n columns on a one-core daemon, checked against
 * double with the bound (CK + 4) u sum |w||x|; returns what it moved. */
#define CM 512
#define CK 256
static traffic copied_gemm(suite *s, trnblasHandle_t h, void *w, void *x, void *y, const float *hw,
                           const float *hx, int n) {
    const traffic t0 = traffic_now(s);
    const float one = 1, zero = 0;
    assert_int_equal(
        trnblasSgemm(h, TRNBLAS_OP_N, TRNBLAS_OP_N, CM, n, CK, &one, w, CM, x, CK, &zero, y, CM),
        TRNBLAS_STATUS_SUCCESS);
    float *out = malloc((size_t)CM * n * 4);
    assert_non_null(out);
    assert_int_equal(trnsciMemcpy(out, y, (size_t)CM * n * 4, trnsciMemcpyDeviceToHost),
                     trnsciSuccess);
    const double u = ldexp(1, -24);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < CM; i++) {
            double want = 0, mag = 0;
            for (int l = 0; l < CK; l++) {
                const double p = (double)hw[i + (size_t)l * CM] * hx[l + (size_t)j * CK];
                want += p;
                mag += fabs(p);
            }
            if (!(fabs(out[i + (size_t)j * CM] - want) <= (CK + 4) * u * mag))
                fail_msg("W X (%d columns): (%d,%d) is %g, not %g", n, i, j,
                         out[i + (size_t)j * CM], want);
        }
    free(out);
    const traffic t1 = traffic_now(s);
    return (traffic){t1.moved - t0.moved, t1.copied - t0.copied, t1.kept - t0.kept};
}

/* What a GEMM of W X must have done with W, in each way of keeping it. */
enum { KEEP_CORE_COPY, KEEP_COPY_ON_CORE, KEEP_PACKED };
static void expect_w(const traffic *t, int way, int w_held, size_t wb, size_t xb, int x_held,
                     const char *what) {
    /* w_held: another program's tensor, or the core's copy, holds W
     * current; x_held: this program's tensor (or the core's copy) holds X. */
    const double w_moved = w_held && way != KEEP_PACKED ? 0 : (double)wb;
    const double w_copied = w_held && way == KEEP_COPY_ON_CORE ? (double)wb : 0;
    const double w_kept = w_held && way == KEEP_CORE_COPY ? (double)wb : 0;
    const double moved = w_moved + (x_held ? 0 : (double)xb) + 8,
                 kept = w_kept + (x_held ? (double)xb : 0);
    if (t->moved != moved || t->copied != w_copied || t->kept != kept)
        fail_msg("%s (way %d): %.0f bytes moved, %.0f copied on the core, %.0f kept; expected "
                 "%.0f, %.0f, %.0f",
                 what, way, t->moved, t->copied, t->kept, moved, w_copied, kept);
}

/* One W used by GEMMs of two programs (X of 16 and of 32 columns) on one
 * core (docs/neuron.md, "Resident operands"). By default W is moved from
 * the host once into the core's copy, which both programs bind: the
 * second GEMM moves and copies none of W. With --neuron-core-copies off,
 * each program's tensor holds W, and the second program copies it on the
 * core from the first's. After W is written, the first GEMM to use it
 * moves it again, and the other binds (or copies) it. Packed
 * (--neuron-in-place off), each program moves W itself. */
static void test_operand_copied_on_core(void **state) {
    suite *s = *state;
    setenv("NRTSIM_CORES", "1", 1);
    const size_t wb = (size_t)CM * CK * 4, x1b = (size_t)CK * 16 * 4, x2b = (size_t)CK * 32 * 4;
    float *hw = malloc(wb), *hx = malloc(x2b);
    assert_true(hw && hx);
    unsigned seed = 21;
    for (size_t i = 0; i < wb / 4; i++)
        hw[i] = urand(&seed);
    for (size_t i = 0; i < x2b / 4; i++)
        hx[i] = urand(&seed);
    static const char *const flags[] = {NULL, "--neuron-core-copies off", "--neuron-in-place off"};
    for (int way = KEEP_CORE_COPY; way <= KEEP_PACKED; way++) {
        assert_int_equal(start_with(s, flags[way]), 0);
        void *w, *x1, *x2, *y;
        assert_int_equal(trnsciMalloc(&w, wb), trnsciSuccess);
        assert_int_equal(trnsciMalloc(&x1, x1b), trnsciSuccess);
        assert_int_equal(trnsciMalloc(&x2, x2b), trnsciSuccess);
        assert_int_equal(trnsciMalloc(&y, (size_t)CM * 32 * 4), trnsciSuccess);
        assert_int_equal(trnsciMemcpy(w, hw, wb, trnsciMemcpyHostToDevice), trnsciSuccess);
        assert_int_equal(trnsciMemcpy(x1, hx, x1b, trnsciMemcpyHostToDevice), trnsciSuccess);
        assert_int_equal(trnsciMemcpy(x2, hx, x2b, trnsciMemcpyHostToDevice), trnsciSuccess);
        trnblasHandle_t h;
        assert_int_equal(trnblasCreate(&h), TRNBLAS_STATUS_SUCCESS);
        traffic t = copied_gemm(s, h, w, x1, y, hw, hx, 16);
        expect_w(&t, way, 0, wb, x1b, 0, "W X1");
        t = copied_gemm(s, h, w, x2, y, hw, hx, 32);
        expect_w(&t, way, 1, wb, x2b, 0, "W X2");
        /* W written: every copy of it is stale. */
        for (size_t i = 0; i < wb / 4; i += 7)
            hw[i] = -hw[i];
        assert_int_equal(trnsciMemcpy(w, hw, wb, trnsciMemcpyHostToDevice), trnsciSuccess);
        t = copied_gemm(s, h, w, x2, y, hw, hx, 32);
        expect_w(&t, way, 0, wb, x2b, 1, "W' X2");
        t = copied_gemm(s, h, w, x1, y, hw, hx, 16);
        expect_w(&t, way, 1, wb, x1b, 1, "W' X1");
        /* The core holds one copy each of W, X1 and X2 (W's written again in
         * place), and none but with core copies. */
        const double held = metric(s, "trnscid_neuron_core_copy_bytes");
        if (held != (way == KEEP_CORE_COPY ? (double)(wb + x1b + x2b) : 0))
            fail_msg("way %d: %.0f bytes in core copies", way, held);
        trnblasDestroy(h);
        trnsciFree(w);
        trnsciFree(x1);
        trnsciFree(x2);
        trnsciFree(y);
        stop(s);
    }
    free(hw);
    free(hx);
}

/* Placement by location: on two cores, a GEMM whose inputs are in one
 * core's memory runs there, whichever worker takes it. Z = Zm X (stream 0)
 * and W X (stream 1) take a core each (both wait for the one compile);
 * then, both cores idle each time, W X, Z X, W X, ... each runs on the core
 * that holds its inputs and moves only alpha and beta (8 bytes), where a
 * core woken for it that does not hold them would move its A (1 MiB; with
 * --neuron-locality off, 1 to 3 of the 6 rounds did). Each result is
 * right. */
static void test_gemm_runs_where_its_inputs_are(void **state) {
    suite *s = *state;
    char trace[300];
    snprintf(trace, sizeof(trace), "%s/trace", s->locks);
    unlink(trace);
    setenv("NRTSIM_TRACE", trace, 1);
    setenv("NRTSIM_DMA_GBPS", "0.5", 1); /* 1 MiB op(A): 2.1 ms */
    setenv("NRTSIM_GFLOPS", "5", 1);     /* 33.5 MFLOP: 6.7 ms */
    assert_int_equal(start(s), 0);
    const size_t na = (size_t)QM * QK, nb = (size_t)QK * QN, ny = (size_t)QM * QN;
    float *hw = malloc(na * 4), *hz = malloc(na * 4), *hx = malloc(nb * 4), *out = malloc(ny * 4);
    assert_true(hw && hz && hx && out);
    unsigned seed = 29;
    for (size_t e = 0; e < na; e++) {
        hw[e] = urand(&seed);
        hz[e] = urand(&seed);
    }
    for (size_t e = 0; e < nb; e++)
        hx[e] = urand(&seed);
    void *w, *z, *x, *yw, *yz;
    assert_int_equal(trnsciMalloc(&w, na * 4), trnsciSuccess);
    assert_int_equal(trnsciMalloc(&z, na * 4), trnsciSuccess);
    assert_int_equal(trnsciMalloc(&x, nb * 4), trnsciSuccess);
    assert_int_equal(trnsciMalloc(&yw, ny * 4), trnsciSuccess);
    assert_int_equal(trnsciMalloc(&yz, ny * 4), trnsciSuccess);
    assert_int_equal(trnsciMemcpy(w, hw, na * 4, trnsciMemcpyHostToDevice), trnsciSuccess);
    assert_int_equal(trnsciMemcpy(z, hz, na * 4, trnsciMemcpyHostToDevice), trnsciSuccess);
    assert_int_equal(trnsciMemcpy(x, hx, nb * 4, trnsciMemcpyHostToDevice), trnsciSuccess);
    trnsciStream_t st[2];
    trnblasHandle_t h[2];
    for (int i = 0; i < 2; i++) {
        assert_int_equal(trnsciStreamCreate(&st[i]), trnsciSuccess);
        assert_int_equal(trnblasCreate(&h[i]), TRNBLAS_STATUS_SUCCESS);
        assert_int_equal(trnblasSetStream(h[i], st[i]), TRNBLAS_STATUS_SUCCESS);
    }
    const float one = 1, zero = 0;
    const void *as[2] = {z, w};
    void *ys[2] = {yz, yw};
    for (int i = 0; i < 2; i++) /* the first compiles: Z alone, then both at once */
        assert_int_equal(trnblasSgemm(h[i], TRNBLAS_OP_N, TRNBLAS_OP_N, QM, QN, QK, &one, as[i], QM,
                                      x, QK, &zero, ys[i], QM),
                         TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(trnsciDeviceSynchronize(), trnsciSuccess);
    unsigned long long seen = 0;
    (void)written_since(trace, &seen);
    for (int round = 0; round < 6; round++) {
        const int i = round % 2 ? 0 : 1; /* W X, Z X, W X, ... */
        assert_int_equal(trnblasSgemm(h[i], TRNBLAS_OP_N, TRNBLAS_OP_N, QM, QN, QK, &one, as[i], QM,
                                      x, QK, &zero, ys[i], QM),
                         TRNBLAS_STATUS_SUCCESS);
        assert_int_equal(trnsciDeviceSynchronize(), trnsciSuccess);
        const unsigned long long moved = written_since(trace, &seen);
        if (moved != 8)
            fail_msg("round %d: %s X again moved %llu bytes to the core (it and X were in one "
                     "core's memory)",
                     round, i ? "W" : "Z", moved);
        assert_int_equal(trnsciMemcpy(out, ys[i], ny * 4, trnsciMemcpyDeviceToHost), trnsciSuccess);
        check_q_product(i ? hw : hz, hx, QK, out, "a GEMM on the core that holds its inputs");
    }
    check_cost_model(s, 0.5e9, 2.0 * QM * QN * QK / 5e9);
    for (int i = 0; i < 2; i++) {
        trnblasDestroy(h[i]);
        trnsciStreamDestroy(st[i]);
    }
    trnsciFree(w);
    trnsciFree(z);
    trnsciFree(x);
    trnsciFree(yw);
    trnsciFree(yz);
    stop(s);
    free(hw);
    free(hz);
    free(hx);
    free(out);
    unsetenv("NRTSIM_TRACE");
    unsetenv("NRTSIM_DMA_GBPS");
    unsetenv("NRTSIM_GFLOPS");
}

/* ---- hybrid placement ---------------------------------------------------------- */

static void test_fp64_and_fft_run_on_the_cpu(void **state) {
    suite *s = *state;
    assert_int_equal(start(s), 0);
    /* DGEMM: no Neuron kernel gives FP64. Integers: exact. */
    enum { N = 24 };
    double ha[N * N], hb[N * N], hc[N * N];
    for (int i = 0; i < N * N; i++) {
        ha[i] = (i * 7) % 9 - 4;
        hb[i] = (i * 5) % 7 - 3;
    }
    double *da, *db, *dc;
    assert_int_equal(trnsciMalloc((void **)&da, sizeof(ha)), trnsciSuccess);
    assert_int_equal(trnsciMalloc((void **)&db, sizeof(hb)), trnsciSuccess);
    assert_int_equal(trnsciMalloc((void **)&dc, sizeof(hc)), trnsciSuccess);
    trnsciMemcpy(da, ha, sizeof(ha), trnsciMemcpyHostToDevice);
    trnsciMemcpy(db, hb, sizeof(hb), trnsciMemcpyHostToDevice);
    trnblasHandle_t h;
    assert_int_equal(trnblasCreate(&h), TRNBLAS_STATUS_SUCCESS);
    const double one = 1, zero = 0;
    assert_int_equal(
        trnblasDgemm(h, TRNBLAS_OP_N, TRNBLAS_OP_N, N, N, N, &one, da, N, db, N, &zero, dc, N),
        TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(trnsciMemcpy(hc, dc, sizeof(hc), trnsciMemcpyDeviceToHost), trnsciSuccess);
    for (int j = 0; j < N; j++)
        for (int i = 0; i < N; i++) {
            double r = 0;
            for (int l = 0; l < N; l++)
                r += ha[i + l * N] * hb[l + j * N];
            assert_true(hc[i + j * N] == r);
        }
    trnblasDestroy(h);
    trnsciFree(da);
    trnsciFree(db);
    trnsciFree(dc);

    /* A C2C FFT of 64 points against the DFT in double: error within
     * 5 log2(n) u max|x| sum (FFTW's bound, generously). */
    enum { F = 64 };
    trnfftComplex x[F], y[F];
    for (int i = 0; i < F; i++) {
        x[i].x = (float)sin(0.3 * i);
        x[i].y = (float)cos(0.7 * i * i);
    }
    trnfftComplex *dx;
    assert_int_equal(trnsciMalloc((void **)&dx, sizeof(x)), trnsciSuccess);
    trnsciMemcpy(dx, x, sizeof(x), trnsciMemcpyHostToDevice);
    trnfftHandle plan;
    assert_int_equal(trnfftPlan1d(&plan, F, TRNFFT_C2C, 1), TRNFFT_SUCCESS);
    assert_int_equal(trnfftExecC2C(plan, dx, dx, TRNFFT_FORWARD), TRNFFT_SUCCESS);
    assert_int_equal(trnsciMemcpy(y, dx, sizeof(y), trnsciMemcpyDeviceToHost), trnsciSuccess);
    for (int k = 0; k < F; k++) {
        double complex r = 0;
        for (int i = 0; i < F; i++)
            r += (x[i].x + x[i].y * I) * cexp(-2 * M_PI * I * (double)((i * k) % F) / F);
        assert_true(cabs(y[k].x + y[k].y * I - r) <= 5 * 6 * ldexp(1, -24) * 2 * F);
    }
    trnfftDestroy(plan);
    trnsciFree(dx);
    /* Neither compiled anything, nor ran on a NeuronCore. */
    assert_true(metric(s, "trnscid_neff_compiles_total") == 0);
    assert_true(metric(s, "trnscid_ops_placed_total{placement=\"neuroncore\"}") == 0);
    assert_true(metric(s, "trnscid_ops_placed_total{placement=\"host\"}") >= 2);
    stop(s);
}

/* ---- the NEFF cache ------------------------------------------------------------ */

static int second_process_role(const char *addr, int fd) {
    (void)fd;
    if (trnsciInit(addr) != trnsciSuccess)
        return 2;
    const trnsciError_t st = run_case(&CASES[0], 5u);
    trnsciDeviceReset();
    return st == trnsciSuccess ? 0 : 1;
}

static void test_neff_cache_miss_hit_restart(void **state) {
    suite *s = *state;
    assert_int_equal(start(s), 0);
    run_ok(&CASES[0], 1u);
    assert_true(metric(s, "trnscid_neff_compiles_total") == 1);
    /* The same shape from another process: the plan cache's hit. */
    const pid_t child = th_spawn_role("second", s->d.unix_addr, -1);
    assert_int_equal(th_wait_child(child), 0);
    assert_true(metric(s, "trnscid_neff_compiles_total") == 1);
    assert_true(metric(s, "trnscid_plan_cache_hits_total") >= 1);
    /* `trnsci plans` lists the NEFF: key, state with the cores it ran on,
     * hits, its size, its compile time. */
    trnsciPlanInfo plans[8];
    int count = 0;
    assert_int_equal(trnsciDaemonGetPlans(s->d.unix_addr, plans, 8, &count, NULL), trnsciSuccess);
    assert_int_equal(count, 1);
    assert_string_equal(plans[0].key, "program gemm dtype=f32 mode=fp32 m=130 n=70 k=257 batch=1 "
                                      "layout=cm ta=n tb=n");
    if (strncmp(plans[0].state, "ready; ran on cores ", 20) != 0)
        fail_msg("state \"%s\"", plans[0].state);
    assert_true(plans[0].hits >= 1 && plans[0].bytes > 0);
    assert_true(plans[0].buildSeconds >= 0.05); /* the simulated compile: NRTSIM_CC_MS */
    stop(s);

    /* Restarted on the same cache directory: the manifest pre-warms the
     * plan, its NEFF comes from disk. */
    assert_int_equal(start(s), 0);
    for (int i = 0; i < 200 && metric(s, "trnscid_plan_cache_prewarm_done") != 1; i++)
        th_sleep_ms(50);
    run_ok(&CASES[0], 2u);
    assert_true(metric(s, "trnscid_neff_cache_hits_total") >= 1);
    assert_true(metric(s, "trnscid_neff_compiles_total") == 0);
    assert_int_equal(store_count(s, ".neff"), 1);
    stop(s);
}

static void test_compile_failure_remembered(void **state) {
    suite *s = *state;
    setenv("NRTSIM_CC_FAIL", "m=33 ", 1); /* the compiler inherits it */
    const gemm_case bad = {0, TRNBLAS_OP_N, TRNBLAS_OP_N, 33, 8, 8, 1, MODE_FP32, {1, 0}, {0, 0}};
    assert_int_equal(start(s), 0);
    for (int round = 0; round < 2; round++) {
        assert_int_equal(run_case(&bad, 3u), trnsciErrorLaunchFailure);
        const char *m = last_error;
        if (!strstr(m, "injected failure"))
            fail_msg("expected the compiler's message, got \"%s\"", m);
    }
    assert_true(metric(s, "trnscid_neff_compiles_total") == 1);
    assert_true(metric(s, "trnscid_neff_compile_failures_total") == 1);
    assert_int_equal(store_count(s, ".fail"), 1);
    /* Other shapes still compile and run. */
    run_ok(&CASES[1], 4u);
    stop(s);

    assert_int_equal(start(s), 0);
    assert_int_equal(run_case(&bad, 3u), trnsciErrorLaunchFailure);
    const char *m = last_error;
    if (!strstr(m, "remembered") || !strstr(m, "injected failure"))
        fail_msg("expected the remembered failure, got \"%s\"", m);
    assert_true(metric(s, "trnscid_neff_compiles_total") == 0);
    stop(s);
    unsetenv("NRTSIM_CC_FAIL");
}

/* ---- device memory ------------------------------------------------------------- */

static void test_programs_evicted_under_memory_pressure(void **state) {
    suite *s = *state;
    /* A 200x200x200 program holds four 160 KB tensors, and the simulator
     * charges its load as much again: 2 MiB per core hold one such program,
     * not two. */
    setenv("NRTSIM_HBM_MB", "2", 1);
    assert_int_equal(start(s), 0);
    const gemm_case a = {0, TRNBLAS_OP_N, TRNBLAS_OP_N, 200,   200, 200,
                         1, MODE_FP32,    {1, 0},       {0, 0}};
    const gemm_case b = {0, TRNBLAS_OP_N, TRNBLAS_OP_N, 200,   200, 199,
                         1, MODE_FP32,    {1, 0},       {0, 0}};
    for (int round = 0; round < 3; round++) {
        run_ok(&a, 10u + (unsigned)round);
        run_ok(&b, 20u + (unsigned)round);
    }
    stop(s);
    unsetenv("NRTSIM_HBM_MB");
}

/* ---- a core that stops answering -------------------------------------------------- */

/* A bystander: FP64 GEMMs (the CPU's, on the same executors) of small
 * integers, checked exactly, until a byte arrives on quit_fd (non-blocking);
 * exit status = failures. */
static int bystander_role(const char *addr, int quit_fd) {
    if (trnsciInit(addr) != trnsciSuccess)
        return 100;
    enum { N = 16 };
    double ha[N * N], hb[N * N], hc[N * N];
    double *da, *db, *dc;
    if (trnsciMalloc((void **)&da, sizeof(ha)) || trnsciMalloc((void **)&db, sizeof(hb)) ||
        trnsciMalloc((void **)&dc, sizeof(hc)))
        return 101;
    trnblasHandle_t h;
    if (trnblasCreate(&h) != TRNBLAS_STATUS_SUCCESS)
        return 102;
    int failures = 0;
    /* Until told to stop (at most a minute). */
    for (int round = 0; round < 600000; round++) {
        for (int i = 0; i < N * N; i++) {
            ha[i] = (i * 7 + round) % 9 - 4;
            hb[i] = (i * 5 + 2 * round) % 7 - 3;
        }
        const double one = 1, zero = 0;
        if (trnsciMemcpy(da, ha, sizeof(ha), trnsciMemcpyHostToDevice) ||
            trnsciMemcpy(db, hb, sizeof(hb), trnsciMemcpyHostToDevice) ||
            trnblasDgemm(h, TRNBLAS_OP_N, TRNBLAS_OP_N, N, N, N, &one, da, N, db, N, &zero, dc,
                         N) != TRNBLAS_STATUS_SUCCESS ||
            trnsciMemcpy(hc, dc, sizeof(hc), trnsciMemcpyDeviceToHost)) {
            failures++;
            continue;
        }
        for (int j = 0; j < N; j++)
            for (int i = 0; i < N; i++) {
                double r = 0;
                for (int l = 0; l < N; l++)
                    r += ha[i + l * N] * hb[l + j * N];
                failures += hc[i + j * N] != r;
            }
        char quit;
        if (read(quit_fd, &quit, 1) == 1)
            break;
        if (round % 100 == 99)
            th_sleep_ms(100);
    }
    trnblasDestroy(h);
    trnsciDeviceReset();
    return failures > 99 ? 99 : failures;
}

/* Launches 16 SGEMMs of CASES[0]'s shape on four streams (each about 5 ms
 * on a simulated core at NRTSIM_GFLOPS=1, so both cores take some); after
 * disarm_ms (when >= 0) empties the fault file; then synchronizes. Returns
 * whether that failed with a message holding needle. */
static int burst_fails_with(const suite *s, const char *needle, int disarm_ms) {
    const gemm_case *g = &CASES[0];
    const size_t na = (size_t)g->m * g->k, nb = (size_t)g->k * g->n, nc = (size_t)g->m * g->n;
    float *a, *b, *c;
    assert_int_equal(trnsciMalloc((void **)&a, na * 4), trnsciSuccess);
    assert_int_equal(trnsciMalloc((void **)&b, nb * 4), trnsciSuccess);
    assert_int_equal(trnsciMalloc((void **)&c, 4 * nc * 4), trnsciSuccess);
    assert_int_equal(trnsciMemset(a, 0, na * 4), trnsciSuccess);
    assert_int_equal(trnsciMemset(b, 0, nb * 4), trnsciSuccess);
    trnblasHandle_t h;
    assert_int_equal(trnblasCreate(&h), TRNBLAS_STATUS_SUCCESS);
    trnsciStream_t st[4];
    for (int i = 0; i < 4; i++)
        assert_int_equal(trnsciStreamCreate(&st[i]), trnsciSuccess);
    const float one = 1, zero = 0;
    for (int i = 0; i < 16; i++) {
        trnblasSetStream(h, st[i % 4]);
        assert_int_equal(trnblasSgemm(h, TRNBLAS_OP_N, TRNBLAS_OP_N, g->m, g->n, g->k, &one, a,
                                      g->m, b, g->k, &zero, c + (size_t)(i % 4) * nc, g->m),
                         TRNBLAS_STATUS_SUCCESS);
    }
    if (disarm_ms >= 0) {
        th_sleep_ms(disarm_ms);
        arm_faults(s, "\n");
    }
    const int failed = trnsciDeviceSynchronize() != trnsciSuccess;
    snprintf(last_error, sizeof(last_error), "%s", failed ? trnsciGetLastErrorMessage() : "");
    for (int i = 0; i < 4; i++)
        trnsciStreamDestroy(st[i]);
    trnblasDestroy(h);
    trnsciFree(a);
    trnsciFree(b);
    trnsciFree(c);
    return failed && strstr(last_error, needle) != NULL;
}

/* A NeuronCore that stops answering: the op running there is stopped by
 * the executor's watchdog and fails; the executor starts again (the core's
 * runtime with it) and the core runs NEFFs again; another session's ops
 * meanwhile all succeed. */
static void test_core_that_hangs(void **state) {
    suite *s = *state;
    setenv("NRTSIM_GFLOPS", "1", 1); /* about 5 ms per GEMM of CASES[0] */
    assert_int_equal(start_with(s, "--executor-watchdog-floor-ms 500"), 0);
    unsetenv("NRTSIM_GFLOPS");
    run_ok(&CASES[0], 50u); /* compiled, then resident */
    int ctl[2];
    assert_int_equal(pipe(ctl), 0);
    fcntl(ctl[0], F_SETFL, O_NONBLOCK);
    const pid_t by = th_spawn_role("bystander", s->d.unix_addr, ctl[0]);
    close(ctl[0]);
    th_sleep_ms(200);
    /* Core 0 hangs under the burst; the fault is gone before the watchdog
     * (500 ms) restarts its executor, which reads the file afresh. */
    arm_faults(s, "hang core=0\n");
    if (!burst_fails_with(s, "watchdog", 300))
        fail_msg("expected the watchdog's message, got \"%s\"", last_error);
    for (int round = 0; round < 4; round++)
        run_ok(&CASES[0], 60u + (unsigned)round);
    assert_true(metric(s, "trnscid_executor_starts_total{core=\"0\"}") >= 2);
    /* Core 0 runs NEFFs again: an error injected there reaches one of a
     * burst of GEMMs on four streams (each about 5 ms on the simulated
     * core, so both cores take some). */
    arm_faults(s, "exec_error core=0 count=1\n");
    int saw_core0 = 0;
    for (int round = 0; round < 8 && !saw_core0; round++)
        saw_core0 = burst_fails_with(s, "NeuronCore 0", -1);
    if (!saw_core0)
        fail_msg("no op reached core 0 again: \"%s\"", last_error);
    const char quit = 1;
    signal(SIGPIPE, SIG_IGN); /* it may have ended: its status says how */
    (void)!write(ctl[1], &quit, 1);
    close(ctl[1]);
    assert_int_equal(th_wait_child(by), 0);
    stop(s);
}

/* ---- without executors ------------------------------------------------------------ */

/* --executors off: the daemon's own process owns the cores, its workers
 * drive one each. */
/* ---- a graph segment as one program ------------------------------------------- */

/* A captured segment of three FP32 GEMMs that form one program (gemm_seq):
 *   node 0: T = W1 X           (SQ_M x SQ_N x SQ_K)
 *   node 1: Y = W2 T           (SQ_M2 x SQ_N x SQ_M; b is node 0's d)
 *   node 2: Y = 0.5 W3 X + Y   (SQ_M2 x SQ_N x SQ_K; c is node 1's d)
 * or, with `u` set, node 1 multiplies U instead of T (an update). */
enum { SQ_M = 64, SQ_K = 96, SQ_N = 48, SQ_M2 = 40 };
#define SQ_SCAL (3ull * 2 * sizeof(float)) /* each node's alpha and beta */

typedef struct seq_fx {
    float hx[SQ_K * SQ_N], hw1[SQ_M * SQ_K], hw2[SQ_M2 * SQ_M], hw3[SQ_M2 * SQ_K], hu[SQ_M * SQ_N];
    float *x, *w1, *w2, *w3, *u, *t, *y, *scratch;
    trnblasHandle_t h;
    trnsciStream_t st;
} seq_fx;

static void seq_fx_init(seq_fx *f) {
    unsigned seed = 4242;
    float *hosts[] = {f->hx, f->hw1, f->hw2, f->hw3, f->hu};
    const size_t counts[] = {SQ_K * SQ_N, SQ_M * SQ_K, SQ_M2 * SQ_M, SQ_M2 * SQ_K, SQ_M * SQ_N};
    float **devs[] = {&f->x, &f->w1, &f->w2, &f->w3, &f->u};
    for (int i = 0; i < 5; i++) {
        for (size_t e = 0; e < counts[i]; e++)
            hosts[i][e] = urand(&seed);
        assert_int_equal(trnsciMalloc((void **)devs[i], counts[i] * 4), trnsciSuccess);
        assert_int_equal(trnsciMemcpy(*devs[i], hosts[i], counts[i] * 4, trnsciMemcpyHostToDevice),
                         trnsciSuccess);
    }
    assert_int_equal(trnsciMalloc((void **)&f->t, SQ_M * SQ_N * 4), trnsciSuccess);
    assert_int_equal(trnsciMalloc((void **)&f->y, SQ_M2 * SQ_N * 4), trnsciSuccess);
    assert_int_equal(trnsciMalloc((void **)&f->scratch, sizeof(f->hu)), trnsciSuccess);
    assert_int_equal(trnblasCreate(&f->h), TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(trnsciStreamCreate(&f->st), trnsciSuccess);
    assert_int_equal(trnblasSetStream(f->h, f->st), TRNBLAS_STATUS_SUCCESS);
}

static void seq_fx_free(seq_fx *f) {
    float *devs[] = {f->x, f->w1, f->w2, f->w3, f->u, f->t, f->y, f->scratch};
    for (int i = 0; i < 8; i++)
        trnsciFree(devs[i]);
    trnblasDestroy(f->h);
    trnsciStreamDestroy(f->st);
}

/* The three GEMMs on the fixture's stream (captured, or run one by one). */
static void seq_gemms(seq_fx *f, float *t, float *y, int use_u) {
    const float one = 1, zero = 0, half = 0.5f;
    assert_int_equal(trnblasSgemm(f->h, TRNBLAS_OP_N, TRNBLAS_OP_N, SQ_M, SQ_N, SQ_K, &one, f->w1,
                                  SQ_M, f->x, SQ_K, &zero, t, SQ_M),
                     TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(trnblasSgemm(f->h, TRNBLAS_OP_N, TRNBLAS_OP_N, SQ_M2, SQ_N, SQ_M, &one, f->w2,
                                  SQ_M2, use_u ? f->u : t, SQ_M, &zero, y, SQ_M2),
                     TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(trnblasSgemm(f->h, TRNBLAS_OP_N, TRNBLAS_OP_N, SQ_M2, SQ_N, SQ_K, &half, f->w3,
                                  SQ_M2, f->x, SQ_K, &one, y, SQ_M2),
                     TRNBLAS_STATUS_SUCCESS);
}

/* Captured after a memset of scratch: a segment that mixes the GEMMs with
 * another node, which instantiation cuts in two so that the GEMMs still
 * form one program. */
static trnsciGraph_t seq_capture(seq_fx *f, int use_u) {
    trnsciGraph_t g = NULL;
    assert_int_equal(trnsciStreamBeginCapture(f->st, trnsciStreamCaptureModeGlobal), trnsciSuccess);
    assert_int_equal(trnsciMemsetAsync(f->scratch, 0x5a, sizeof(f->hu), f->st), trnsciSuccess);
    seq_gemms(f, f->t, f->y, use_u);
    assert_int_equal(trnsciStreamEndCapture(f->st, &g), trnsciSuccess);
    return g;
}

/* Checks T and Y (read back into t, y) against double. Bounds (u = 2^-24):
 * node 0 within (K + 4) u sum|W1||X|; Y is node 1's fl(W2 T') (T' the T it
 * read: the T read back, or U) plus node 2's 0.5 W3 X added to it, each
 * within (k + 4) u of its sum of |products| and |c|, so Y is within
 * 2 (K + 4) u (sum|W2||T'| + 0.5 sum|W3||X|). */
static void seq_check(const seq_fx *f, const float *t, const float *y, int use_u) {
    const double u = ldexp(1, -24);
    for (int j = 0; j < SQ_N; j++)
        for (int i = 0; i < SQ_M; i++) {
            double want = 0, mag = 0;
            for (int l = 0; l < SQ_K; l++) {
                want += (double)f->hw1[i + l * SQ_M] * f->hx[l + j * SQ_K];
                mag += fabs((double)f->hw1[i + l * SQ_M] * f->hx[l + j * SQ_K]);
            }
            if (!(fabs(t[i + j * SQ_M] - want) <= (SQ_K + 4) * u * mag))
                fail_msg("T(%d,%d) = %.9g, want %.9g", i, j, t[i + j * SQ_M], want);
        }
    const float *in = use_u ? f->hu : t;
    for (int j = 0; j < SQ_N; j++)
        for (int i = 0; i < SQ_M2; i++) {
            double want = 0, mag = 0;
            for (int l = 0; l < SQ_M; l++) {
                want += (double)f->hw2[i + l * SQ_M2] * in[l + j * SQ_M];
                mag += fabs((double)f->hw2[i + l * SQ_M2] * in[l + j * SQ_M]);
            }
            for (int l = 0; l < SQ_K; l++) {
                want += 0.5 * f->hw3[i + l * SQ_M2] * f->hx[l + j * SQ_K];
                mag += 0.5 * fabs((double)f->hw3[i + l * SQ_M2] * f->hx[l + j * SQ_K]);
            }
            if (!(fabs(y[i + j * SQ_M2] - want) <= 2 * (SQ_K + 4) * u * mag))
                fail_msg("Y(%d,%d) = %.9g, want %.9g%s", i, j, y[i + j * SQ_M2], want,
                         use_u ? " (after the update)" : "");
        }
}

/* Launches x once, synchronizes, reads T and Y back and checks them. */
static void seq_launch_checked(seq_fx *f, trnsciGraphExec_t x, float *t, float *y, int use_u) {
    assert_int_equal(trnsciGraphLaunch(x, f->st), trnsciSuccess);
    assert_int_equal(trnsciStreamSynchronize(f->st), trnsciSuccess);
    assert_int_equal(trnsciMemcpy(t, f->t, SQ_M * SQ_N * 4, trnsciMemcpyDeviceToHost),
                     trnsciSuccess);
    assert_int_equal(trnsciMemcpy(y, f->y, SQ_M2 * SQ_N * 4, trnsciMemcpyDeviceToHost),
                     trnsciSuccess);
    seq_check(f, t, y, use_u);
}

/* Launches until a launch ran the segment together (its NEFF compiled in
 * the background meanwhile; the launches before ran node by node), each
 * checked; at most 10 s. Returns the counter after it. */
static double seq_launch_until_together(suite *s, seq_fx *f, trnsciGraphExec_t x, int use_u) {
    static float t[SQ_M * SQ_N], y[SQ_M2 * SQ_N];
    const double before = metric(s, "trnscid_graph_segments_together_total");
    double now = before;
    for (int i = 0; i < 500 && now == before; i++) {
        seq_launch_checked(f, x, t, y, use_u);
        now = metric(s, "trnscid_graph_segments_together_total");
        if (now == before)
            th_sleep_ms(20);
    }
    if (now == before)
        fail_msg("no launch ran the segment as one program in 10 s");
    return now;
}

/* A segment of NeuronCore GEMMs runs as one program (cut from the memset
 * captured before it): after its NEFF is
 * compiled (in the background, from instantiation), each launch is one
 * execution on the simulated core (the trace) and counts once in
 * trnscid_graph_segments_together_total; every result is right (double)
 * and bitwise what the three GEMMs give run one by one (three
 * executions). Its inputs stay in the core's memory between launches
 * until written. An update that changes where node 1's b comes from (U,
 * not node 0's result) gives a new program, whose results follow U. */
static void seq_together(suite *s, const char *flags) {
    char trace[300];
    snprintf(trace, sizeof(trace), "%s/trace", s->locks);
    unlink(trace);
    setenv("NRTSIM_TRACE", trace, 1);
    assert_int_equal(start_with(s, flags), 0);
    seq_fx f;
    seq_fx_init(&f);
    trnsciGraph_t g = seq_capture(&f, 0);
    trnsciGraphExec_t x;
    assert_int_equal(trnsciGraphInstantiate(&x, g, 0), trnsciSuccess);
    double together = seq_launch_until_together(s, &f, x, 0);

    /* The simulator's processes keep the trace open: counts since. */
    enum { ROUNDS = 4 };
    static float t[SQ_M * SQ_N], y[SQ_M2 * SQ_N], t1[SQ_M * SQ_N], y1[SQ_M2 * SQ_N];
    int execs = read_trace(trace).execs;
    for (int r = 0; r < ROUNDS; r++)
        seq_launch_checked(&f, x, t, y, 0);
    assert_int_equal(read_trace(trace).execs - execs, ROUNDS);
    assert_true(metric(s, "trnscid_graph_segments_together_total") == together + ROUNDS);
    static unsigned char scratch[sizeof(f.hu)];
    assert_int_equal(trnsciMemcpy(scratch, f.scratch, sizeof(scratch), trnsciMemcpyDeviceToHost),
                     trnsciSuccess);
    for (size_t e = 0; e < sizeof(scratch); e++)
        assert_int_equal(scratch[e], 0x5a);
    /* The inputs stay in the core's memory while unchanged: a launch moves
     * only the alphas and betas; after X is written, the two nodes that
     * read it move it again, and the results follow the new X. */
    unsigned long long written = read_trace(trace).written;
    seq_launch_checked(&f, x, t, y, 0);
    assert_int_equal(read_trace(trace).written - written, SQ_SCAL);
    unsigned seed = 77;
    for (size_t e = 0; e < SQ_K * SQ_N; e++)
        f.hx[e] = urand(&seed);
    assert_int_equal(trnsciMemcpy(f.x, f.hx, sizeof(f.hx), trnsciMemcpyHostToDevice),
                     trnsciSuccess);
    written = read_trace(trace).written;
    seq_launch_checked(&f, x, t, y, 0);
    assert_int_equal(read_trace(trace).written - written, 2 * sizeof(f.hx) + SQ_SCAL);

    /* Node by node: three executions, the same bits. */
    float *t_eager, *y_eager;
    assert_int_equal(trnsciMalloc((void **)&t_eager, sizeof(t1)), trnsciSuccess);
    assert_int_equal(trnsciMalloc((void **)&y_eager, sizeof(y1)), trnsciSuccess);
    execs = read_trace(trace).execs;
    seq_gemms(&f, t_eager, y_eager, 0);
    assert_int_equal(trnsciStreamSynchronize(f.st), trnsciSuccess);
    assert_int_equal(read_trace(trace).execs - execs, 3);
    assert_int_equal(trnsciMemcpy(t1, t_eager, sizeof(t1), trnsciMemcpyDeviceToHost),
                     trnsciSuccess);
    assert_int_equal(trnsciMemcpy(y1, y_eager, sizeof(y1), trnsciMemcpyDeviceToHost),
                     trnsciSuccess);
    assert_memory_equal(t, t1, sizeof(t));
    assert_memory_equal(y, y1, sizeof(y));

    /* An update: node 1 now reads U. */
    trnsciGraph_t g2 = seq_capture(&f, 1);
    trnsciGraphExecUpdateResultInfo info;
    assert_int_equal(trnsciGraphExecUpdate(x, g2, &info), trnsciSuccess);
    together = seq_launch_until_together(s, &f, x, 1);
    execs = read_trace(trace).execs;
    seq_launch_checked(&f, x, t, y, 1);
    assert_int_equal(read_trace(trace).execs - execs, 1);

    assert_int_equal(trnsciGraphExecDestroy(x), trnsciSuccess);
    assert_int_equal(trnsciGraphDestroy(g), trnsciSuccess);
    assert_int_equal(trnsciGraphDestroy(g2), trnsciSuccess);
    trnsciFree(t_eager);
    trnsciFree(y_eager);
    seq_fx_free(&f);
    stop(s);
    unsetenv("NRTSIM_TRACE");
    unlink(trace);
}

static void test_graph_segment_runs_as_one_program(void **state) {
    seq_together(*state, NULL);
}

/* The same with --executors off: the worker runs the program itself. */
static void test_graph_segment_as_one_program_without_executors(void **state) {
    seq_together(*state, "--executors off");
}

static void test_without_executors(void **state) {
    suite *s = *state;
    assert_int_equal(start_with(s, "--executors off"), 0);
    run_ok(&CASES[0], 30u);
    run_ok(&CASES[3], 31u);
    arm_faults(s, "exec_error core=0 count=1\nexec_error core=1 count=1\n");
    /* One failure per core the ops reach (which cores the scheduler picks
     * is its business). */
    int failed = 0;
    for (int round = 0; round < 20 && failed < NCORES; round++)
        failed += run_case(&CASES[2], 32u + (unsigned)round) != trnsciSuccess;
    if (failed < 1 || !strstr(last_error, "NeuronCore"))
        fail_msg("%d GEMMs failed; the last said \"%s\"", failed, last_error);
    run_ok(&CASES[4], 40u);
    stop(s);
}

/* ---- ownership ------------------------------------------------------------------ */

static void test_second_daemon_refused_the_cores(void **state) {
    suite *s = *state;
    assert_int_equal(start(s), 0);
    th_daemon other;
    const char *const args[] = {"--backend", "neuron", "--neuron-lib", NRTSIM_LIB, "--neuron-cc",
                                NRTSIM_CC,   NULL};
    assert_int_not_equal(th_daemon_start(&other, args), 0);
    if (!th_file_contains(other.log_path, "in use"))
        fail_msg("the refusal does not carry the runtime's message (log %s)", other.log_path);
    th_remove_dir(other.dir);
    /* The first one still serves. */
    run_ok(&CASES[0], 8u);
    stop(s);
}

int main(int argc, char **argv) {
    if (argc == 5 && strcmp(argv[1], "--role") == 0 && strcmp(argv[2], "second") == 0)
        return second_process_role(argv[3], atoi(argv[4]));
    if (argc == 5 && strcmp(argv[1], "--role") == 0 && strcmp(argv[2], "bystander") == 0)
        return bystander_role(argv[3], atoi(argv[4]));
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_gemms_run_on_neuroncores, setup, teardown),
        cmocka_unit_test_setup_teardown(test_gemm_split_over_cores, setup, teardown),
        cmocka_unit_test_setup_teardown(test_gemm_reads_operands_as_they_lie, setup, teardown),
        cmocka_unit_test_setup_teardown(test_dma_overlaps_execution, setup, teardown),
        cmocka_unit_test_setup_teardown(test_operands_stay_resident, setup, teardown),
        cmocka_unit_test_setup_teardown(test_next_inputs_move_during_execution, setup, teardown),
        cmocka_unit_test_setup_teardown(test_operand_copied_on_core, setup, teardown),
        cmocka_unit_test_setup_teardown(test_core_copies_then_pipelined, setup, teardown),
        cmocka_unit_test_setup_teardown(test_gemm_runs_where_its_inputs_are, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fp64_and_fft_run_on_the_cpu, setup, teardown),
        cmocka_unit_test_setup_teardown(test_neff_cache_miss_hit_restart, setup, teardown),
        cmocka_unit_test_setup_teardown(test_compile_failure_remembered, setup, teardown),
        cmocka_unit_test_setup_teardown(test_programs_evicted_under_memory_pressure, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_second_daemon_refused_the_cores, setup, teardown),
        cmocka_unit_test_setup_teardown(test_graph_segment_runs_as_one_program, setup, teardown),
        cmocka_unit_test_setup_teardown(test_graph_segment_as_one_program_without_executors, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_without_executors, setup, teardown),
        cmocka_unit_test_setup_teardown(test_core_that_hangs, setup, teardown),
    };
    return cmocka_run_group_tests_name("neuron", tests, NULL, NULL);
}
