/*
 * solver_tiled.c — one big factorisation on every core: trnsolverDnDpotrf
 * through a 1-core and an all-cores trnscid (a tiled task graph,
 * ops/solver_tile.h) against LAPACKE_dpotrf in this process on one
 * OpenBLAS thread and on as many threads as the machine has CPUs (OpenBLAS's
 * own threaded Cholesky: the anchor to beat).
 *
 * For each n: the matrix (symmetric, diagonally dominant) is restored
 * before each repetition outside the timing; the timed unit is the call +
 * trnsciStreamSynchronize (trnsci) or the LAPACKE call (in process).
 * Repetitions go round the four configurations in turn, so slow periods of
 * a shared machine hit each. Reported: medians (min, max) in ms, GFLOP/s
 * (n^3/3 flops), the ratios all-cores / 1-core daemon and all-cores daemon
 * / threaded OpenBLAS (time of the other over time of ours: > 1 is
 * faster), whether the 1-core and all-cores factors are bitwise equal, and
 * the OpenBLAS kernel set of each side.
 *
 * usage: bench_solver_tiled ONE_CORE_ADDR ALL_CORES_ADDR [--sizes 4096,8192]
 *                           [--reps N]
 * bench/run_solver_tiled.sh starts the two daemons (docs/benchmarks.md).
 */
#define _GNU_SOURCE
#include <cblas.h>
#include <lapacke.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <trnsci/trnsci.h>
#include <trnsci/trnsolver.h>
#include <unistd.h>

#include "bench_util.h"

#define MAX_SIZES 8
#define MAX_REPS 50
enum { ONE_CORE, ALL_CORES, LAPACK_1, LAPACK_N, NCONF };
static const char *const conf_name[NCONF] = {"trnsci_1core", "trnsci_all_cores", "openblas_1thread",
                                             "openblas_threaded"};

static void die(const char *what) {
    fprintf(stderr, "bench_solver_tiled: %s failed: %s\n", what, trnsciGetLastErrorMessage());
    exit(1);
}

static void make_spd(int n, double *a) {
    const size_t nn = (size_t)n * (size_t)n;
    float *f = malloc(nn * sizeof(float));
    if (!f)
        die("malloc");
    bench_fill(f, nn, 4242u + (unsigned)n);
    for (int j = 0; j < n; j++)
        for (int i = j; i < n; i++) {
            const double v = i == j ? n : f[(size_t)j * n + i];
            a[(size_t)j * n + i] = v;
            a[(size_t)i * n + j] = v;
        }
    free(f);
}

/* A connection to one daemon with the matrix's device buffers. */
typedef struct side {
    const char *addr;
    trnsolverDnHandle_t h;
    double *a;
    int *info;
    trnsciDaemonStatus st;
    trnsciSelfTestSummary blas; /* blasCore: the daemon's OpenBLAS kernel set */
} side;

static void connect_to(side *s, size_t bytes) {
    if (trnsciInit(s->addr) != trnsciSuccess)
        die("trnsciInit");
    if (!s->st.coreCount &&
        (trnsciDaemonGetStatus(s->addr, &s->st) != trnsciSuccess ||
         trnsciDaemonSelfTest(s->addr, 0, NULL, 0, NULL, &s->blas) != trnsciSuccess))
        die("trnsciDaemonGetStatus");
    if (trnsolverDnCreate(&s->h) != TRNSOLVER_STATUS_SUCCESS)
        die("trnsolverDnCreate");
    if (trnsciMalloc((void **)&s->a, bytes) != trnsciSuccess ||
        trnsciMalloc((void **)&s->info, sizeof(int)) != trnsciSuccess)
        die("trnsciMalloc");
}

static void disconnect(side *s) {
    trnsciFree(s->a);
    trnsciFree(s->info);
    trnsolverDnDestroy(s->h);
    trnsciDeviceReset();
}

/* One timed repetition on a daemon; the factor lands in out when not NULL. */
static double run_daemon(side *s, int n, const double *a, double *out) {
    const size_t bytes = (size_t)n * n * sizeof(double);
    connect_to(s, bytes);
    if (trnsciMemcpy(s->a, a, bytes, trnsciMemcpyHostToDevice) != trnsciSuccess)
        die("trnsciMemcpy");
    const double t0 = bench_now_ms();
    if (trnsolverDnDpotrf(s->h, TRNBLAS_FILL_MODE_LOWER, n, s->a, n, NULL, 0, s->info) !=
            TRNSOLVER_STATUS_SUCCESS ||
        trnsciStreamSynchronize(NULL) != trnsciSuccess)
        die("trnsolverDnDpotrf");
    const double ms = bench_now_ms() - t0;
    int info = -1;
    if (trnsciMemcpy(&info, s->info, sizeof(info), trnsciMemcpyDeviceToHost) != trnsciSuccess ||
        info != 0)
        die("potrf info");
    if (out && trnsciMemcpy(out, s->a, bytes, trnsciMemcpyDeviceToHost) != trnsciSuccess)
        die("trnsciMemcpy");
    disconnect(s);
    return ms;
}

static double run_lapack(int n, const double *a, double *work, int threads) {
    memcpy(work, a, (size_t)n * n * sizeof(double));
    openblas_set_num_threads(threads);
    const double t0 = bench_now_ms();
    if (LAPACKE_dpotrf_work(LAPACK_COL_MAJOR, 'L', n, work, n) != 0)
        die("LAPACKE_dpotrf");
    return bench_now_ms() - t0;
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: %s ONE_CORE_ADDR ALL_CORES_ADDR [--sizes N,..] [--reps N]\n",
                argv[0]);
        return 2;
    }
    side sides[2] = {{.addr = argv[1]}, {.addr = argv[2]}};
    int sizes[MAX_SIZES] = {4096, 8192}, nsizes = 2, reps = 5;
    for (int i = 3; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--reps"))
            reps = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--sizes")) {
            nsizes = 0;
            for (char *p = argv[i + 1]; *p && nsizes < MAX_SIZES;) {
                sizes[nsizes++] = (int)strtol(p, &p, 10);
                if (*p == ',')
                    p++;
            }
        } else {
            fprintf(stderr, "bench_solver_tiled: unknown option %s\n", argv[i]);
            return 2;
        }
    }
    if (reps < 1 || reps > MAX_REPS)
        reps = 5;
    const int cpus = (int)sysconf(_SC_NPROCESSORS_ONLN);
    printf("{\n  \"benchmark\": \"solver_tiled\",\n  \"routine\": \"dpotrf lower\",\n");
    bench_json_host(",\n");
    printf("  \"openblas_in_process\": {\"core\": \"%s\", \"threads_threaded\": %d},\n",
           openblas_get_corename(), cpus);
    printf("  \"results\": [");
    for (int si = 0; si < nsizes; si++) {
        const int n = sizes[si];
        const size_t bytes = (size_t)n * n * sizeof(double);
        double *a = malloc(bytes), *work = malloc(bytes), *f1 = malloc(bytes), *fn = malloc(bytes);
        if (!a || !work || !f1 || !fn)
            die("malloc");
        make_spd(n, a);
        double t[NCONF][MAX_REPS];
        /* Warm-up: one of each (the daemons' first potrf of a shape, page
         * faults of the matrices), untimed, keeping the factors. */
        run_daemon(&sides[0], n, a, f1);
        run_daemon(&sides[1], n, a, fn);
        run_lapack(n, a, work, 1);
        run_lapack(n, a, work, cpus);
        for (int r = 0; r < reps; r++) {
            t[ONE_CORE][r] = run_daemon(&sides[0], n, a, NULL);
            t[ALL_CORES][r] = run_daemon(&sides[1], n, a, NULL);
            t[LAPACK_1][r] = run_lapack(n, a, work, 1);
            t[LAPACK_N][r] = run_lapack(n, a, work, cpus);
        }
        const double flop = (double)n * n * n / 3.0;
        double med[NCONF];
        printf("%s\n    {\"n\": %d, \"reps\": %d", si ? "," : "", n, reps);
        for (int c = 0; c < NCONF; c++) {
            const bench_stats s = bench_stats_copy(t[c], reps);
            med[c] = s.median;
            printf(",\n     \"%s\": {\"median_ms\": %.1f, \"min_ms\": %.1f, \"max_ms\": %.1f, "
                   "\"gflops\": %.1f}",
                   conf_name[c], s.median, s.min, s.max, flop / s.median / 1e6);
        }
        printf(",\n     \"daemon_cores\": [%u, %u], \"daemon_openblas_core\": \"%s\"",
               sides[0].st.coreCount, sides[1].st.coreCount, sides[1].blas.blasCore);
        printf(",\n     \"speedup_all_cores_vs_1core\": %.3f", med[ONE_CORE] / med[ALL_CORES]);
        printf(",\n     \"ratio_vs_openblas_threaded\": %.3f", med[LAPACK_N] / med[ALL_CORES]);
        printf(",\n     \"ratio_1core_vs_openblas_1thread\": %.3f", med[LAPACK_1] / med[ONE_CORE]);
        printf(",\n     \"factors_bitwise_equal\": %s}", memcmp(f1, fn, bytes) ? "false" : "true");
        free(a);
        free(work);
        free(f1);
        free(fn);
    }
    printf("\n  ]\n}\n");
    return 0;
}
