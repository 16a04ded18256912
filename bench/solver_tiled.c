/*
 * solver_tiled.c — one big factorisation on every core: trnsolverDnDpotrf
 * trnsolverDnDgetrf (partial pivoting) and trnsolverDnDgeqrf through a 1-core and an
 * all-cores trnscid (tiled task graphs, ops/solver_tile.h) against
 * LAPACKE_dpotrf / dgetrf / dgeqrf in this process on one OpenBLAS thread and on as
 * many threads as the machine has CPUs (OpenBLAS's own threaded
 * factorisations: the anchor to beat).
 *
 * For each n: the matrix (symmetric, diagonally dominant) is restored
 * before each repetition outside the timing; the timed unit is the call +
 * trnsciStreamSynchronize (trnsci) or the LAPACKE call (in process).
 * Repetitions go round the four configurations in turn, so slow periods of
 * a shared machine hit each. Reported: medians (min, max) in ms, GFLOP/s
 * (n^3/3 flops for potrf, 2n^3/3 for getrf, 4n^3/3 for geqrf, 9n^3 for syevd with vectors,
 * the cost model's count), the ratios all-cores / 1-core daemon
 * and all-cores daemon / threaded OpenBLAS (time of the other over time of ours: > 1 is faster),
 * whether the 1-core and all-cores factors are bitwise equal, and the OpenBLAS kernel set of each
 * side.
 *
 * syevd (trnsolverDnDsyevd, jobz V, lower: the tiled syevd of
 * ops/solver_eig_tile.h against LAPACKE_dsyevd_work) runs only when
 * --routines names it: it takes tens of seconds a call at n = 4096. So
 * does gesvd (trnsolverDnDgesvd, jobu = jobvt = 'S': the tiled gesvd of
 * ops/solver_svd_tile.h against LAPACKE_dgesvd_work; 21 n^3 flops, Golub
 * and Van Loan's count for U, S and V): the in-process U and VT get leading
 * dimension n + 8, the layout of the daemon's private copies (with n,
 * dgesvd's rotations of VT are an order of magnitude slower at n = 1024,
 * 2048 or 4096: docs/benchmarks.md), and its "factor" compared bitwise is
 * U. potrs (--routines potrs: trnsolverDnDpotrs with n right-hand sides,
 * split over the cores by whole blocks of them, against LAPACKE_dpotrs_work;
 * 2 n^3 flops) solves with the Cholesky factor this process made once,
 * uploaded outside the timing; its "factor" compared bitwise is X. potri
 * (--routines potri: trnsolverDnDpotri, the tiled inverse of
 * ops/solver_inv_tile.h, against LAPACKE_dpotri_work; 2 n^3 / 3 flops)
 * inverts from the same factor.
 *
 * usage: bench_solver_tiled ONE_CORE_ADDR ALL_CORES_ADDR [--sizes 4096,8192]
 *                           [--reps N] [--routines potrf,getrf,geqrf,syevd,gesvd,potrs,potri]
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

enum { R_POTRF, R_GETRF, R_GEQRF, R_SYEVD, R_GESVD, R_POTRS, R_POTRI, NROUT };
static const char *const rname[NROUT] = {"dpotrf lower",     "dgetrf",
                                         "dgeqrf",           "dsyevd vectors lower",
                                         "dgesvd vectors S", "dpotrs lower, n right-hand sides",
                                         "dpotri lower"};
/* The in-process gesvd's U and VT leading dimension past n (see the top). */
#define LD_PAD 8

/* potrf: symmetric and diagonally dominant; getrf, geqrf: uniform [-1, 1);
 * syevd: symmetric, uniform [-1, 1); potrs, potri: potrf's matrix factored
 * here (its lower triangle the factor). */
static void make_input(int r, int n, double *a) {
    if (r == R_POTRS || r == R_POTRI) {
        make_input(R_POTRF, n, a);
        if (LAPACKE_dpotrf_work(LAPACK_COL_MAJOR, 'L', n, a, n) != 0)
            die("the potrs bench's factor");
        return;
    }
    const size_t nn = (size_t)n * (size_t)n;
    float *f = malloc(nn * sizeof(float));
    if (!f)
        die("malloc");
    bench_fill(f, nn, 4242u + (unsigned)n + 1000u * (unsigned)r);
    for (int j = 0; j < n; j++)
        for (int i = r == R_POTRF || r == R_SYEVD ? j : 0; i < n; i++) {
            const double v = r == R_POTRF && i == j ? n : f[(size_t)j * n + i];
            a[(size_t)j * n + i] = v;
            if (r == R_POTRF || r == R_SYEVD)
                a[(size_t)i * n + j] = v;
        }
    free(f);
}

/* A connection to one daemon with the matrix's device buffers. */
typedef struct side {
    const char *addr;
    trnsolverDnHandle_t h;
    double *a, *tau; /* tau: W for syevd, S for gesvd */
    double *u, *vt;  /* gesvd */
    int *info, *ipiv;
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
        trnsciMalloc((void **)&s->info, sizeof(int)) != trnsciSuccess ||
        trnsciMalloc((void **)&s->ipiv, bytes / sizeof(double)) != trnsciSuccess ||
        trnsciMalloc((void **)&s->tau, bytes / sizeof(double)) != trnsciSuccess ||
        trnsciMalloc((void **)&s->u, bytes) != trnsciSuccess ||
        trnsciMalloc((void **)&s->vt, bytes) != trnsciSuccess)
        die("trnsciMalloc");
}

static void disconnect(side *s) {
    trnsciFree(s->a);
    trnsciFree(s->info);
    trnsciFree(s->ipiv);
    trnsciFree(s->tau);
    trnsciFree(s->u);
    trnsciFree(s->vt);
    trnsolverDnDestroy(s->h);
    trnsciDeviceReset();
}

/* potrs's right-hand sides: n x n, uniform [-1, 1). */
static const double *rhs_of(int n) {
    static double *b;
    static int bn;
    if (bn != n) {
        free(b);
        const size_t nn = (size_t)n * (size_t)n;
        float *f = malloc(nn * sizeof(float));
        b = malloc(nn * sizeof(double));
        if (!f || !b)
            die("malloc");
        bench_fill(f, nn, 9090u + (unsigned)n);
        for (size_t k = 0; k < nn; k++)
            b[k] = f[k];
        free(f);
        bn = n;
    }
    return b;
}

/* One timed repetition on a daemon; the factor (potrs: X) lands in out when
 * not NULL. */
static double run_daemon(side *s, int r, int n, const double *a, double *out) {
    const size_t bytes = (size_t)n * n * sizeof(double);
    connect_to(s, bytes);
    if (trnsciMemcpy(s->a, a, bytes, trnsciMemcpyHostToDevice) != trnsciSuccess ||
        (r == R_POTRS &&
         trnsciMemcpy(s->u, rhs_of(n), bytes, trnsciMemcpyHostToDevice) != trnsciSuccess))
        die("trnsciMemcpy");
    const double t0 = bench_now_ms();
    const trnsolverStatus_t st =
        r == R_POTRF
            ? trnsolverDnDpotrf(s->h, TRNBLAS_FILL_MODE_LOWER, n, s->a, n, NULL, 0, s->info)
        : r == R_GETRF ? trnsolverDnDgetrf(s->h, n, n, s->a, n, NULL, s->ipiv, s->info)
        : r == R_GEQRF ? trnsolverDnDgeqrf(s->h, n, n, s->a, n, s->tau, NULL, 0, s->info)
        : r == R_SYEVD ? trnsolverDnDsyevd(s->h, TRNSOLVER_EIG_MODE_VECTOR, TRNBLAS_FILL_MODE_LOWER,
                                           n, s->a, n, s->tau, NULL, 0, s->info)
        : r == R_POTRS
            ? trnsolverDnDpotrs(s->h, TRNBLAS_FILL_MODE_LOWER, n, n, s->a, n, s->u, n, s->info)
        : r == R_POTRI
            ? trnsolverDnDpotri(s->h, TRNBLAS_FILL_MODE_LOWER, n, s->a, n, NULL, 0, s->info)
            : trnsolverDnDgesvd(s->h, 'S', 'S', n, n, s->a, n, s->tau, s->u, n, s->vt, n, NULL, 0,
                                NULL, s->info);
    if (st != TRNSOLVER_STATUS_SUCCESS || trnsciStreamSynchronize(NULL) != trnsciSuccess)
        die(rname[r]);
    const double ms = bench_now_ms() - t0;
    int info = -1;
    if (trnsciMemcpy(&info, s->info, sizeof(info), trnsciMemcpyDeviceToHost) != trnsciSuccess ||
        info != 0)
        die("info");
    if (out && trnsciMemcpy(out, r == R_GESVD || r == R_POTRS ? s->u : s->a, bytes,
                            trnsciMemcpyDeviceToHost) != trnsciSuccess)
        die("trnsciMemcpy");
    disconnect(s);
    return ms;
}

/* qrwork (lqrwork) is geqrf's, syevd's or gesvd's work; ipiv syevd's iwork
 * (liwork); uv gesvd's U then VT (leading dimension n + LD_PAD). */
static double run_lapack(int r, int n, const double *a, double *work, lapack_int *ipiv, double *tau,
                         double *qrwork, lapack_int lqrwork, lapack_int liwork, double *uv,
                         int threads) {
    const int ld = n + LD_PAD;
    memcpy(work, r == R_POTRS ? rhs_of(n) : a, (size_t)n * n * sizeof(double));
    openblas_set_num_threads(threads);
    const double t0 = bench_now_ms();
    const lapack_int info =
        r == R_POTRF   ? LAPACKE_dpotrf_work(LAPACK_COL_MAJOR, 'L', n, work, n)
        : r == R_GETRF ? LAPACKE_dgetrf_work(LAPACK_COL_MAJOR, n, n, work, n, ipiv)
        : r == R_GEQRF ? LAPACKE_dgeqrf_work(LAPACK_COL_MAJOR, n, n, work, n, tau, qrwork, lqrwork)
        : r == R_SYEVD ? LAPACKE_dsyevd_work(LAPACK_COL_MAJOR, 'V', 'L', n, work, n, tau, qrwork,
                                             lqrwork, ipiv, liwork)
        : r == R_POTRS ? LAPACKE_dpotrs_work(LAPACK_COL_MAJOR, 'L', n, n, a, n, work, n)
        : r == R_POTRI ? LAPACKE_dpotri_work(LAPACK_COL_MAJOR, 'L', n, work, n)
                       : LAPACKE_dgesvd_work(LAPACK_COL_MAJOR, 'S', 'S', n, n, work, n, tau, uv, ld,
                                             uv + (size_t)ld * n, ld, qrwork, lqrwork);
    if (info != 0)
        die("LAPACKE");
    return bench_now_ms() - t0;
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: %s ONE_CORE_ADDR ALL_CORES_ADDR [--sizes N,..] [--reps N]\n",
                argv[0]);
        return 2;
    }
    side sides[2] = {{.addr = argv[1]}, {.addr = argv[2]}};
    int sizes[MAX_SIZES] = {4096, 8192}, nsizes = 2, reps = 5, want[NROUT] = {1, 1, 1, 0, 0, 0, 0};
    for (int i = 3; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--routines")) {
            want[R_POTRF] = strstr(argv[i + 1], "potrf") != NULL;
            want[R_GETRF] = strstr(argv[i + 1], "getrf") != NULL;
            want[R_GEQRF] = strstr(argv[i + 1], "geqrf") != NULL;
            want[R_SYEVD] = strstr(argv[i + 1], "syevd") != NULL;
            want[R_GESVD] = strstr(argv[i + 1], "gesvd") != NULL;
            want[R_POTRS] = strstr(argv[i + 1], "potrs") != NULL;
            want[R_POTRI] = strstr(argv[i + 1], "potri") != NULL;
        } else if (!strcmp(argv[i], "--reps"))
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
    printf("{\n  \"benchmark\": \"solver_tiled\",\n");
    bench_json_host(",\n");
    printf("  \"openblas_in_process\": {\"core\": \"%s\", \"threads_threaded\": %d},\n",
           openblas_get_corename(), cpus);
    printf("  \"results\": [");
    int first = 1;
    for (int r = 0; r < NROUT; r++)
        for (int si = 0; si < nsizes && want[r]; si++) {
            const int n = sizes[si];
            const size_t bytes = (size_t)n * n * sizeof(double);
            double *a = malloc(bytes), *work = malloc(bytes), *f1 = malloc(bytes),
                   *fn = malloc(bytes);
            double *tau = malloc((size_t)n * sizeof(double)), q = 0;
            lapack_int liw = n;
            double *uv =
                r == R_GESVD ? malloc(2 * (size_t)(n + LD_PAD) * n * sizeof(double)) : NULL;
            if (r == R_SYEVD) /* LAPACK's lwork and liwork */
                LAPACKE_dsyevd_work(LAPACK_COL_MAJOR, 'V', 'L', n, a, n, tau, &q, -1, &liw, -1);
            else if (r == R_GESVD)
                LAPACKE_dgesvd_work(LAPACK_COL_MAJOR, 'S', 'S', n, n, a, n, tau, uv, n + LD_PAD, uv,
                                    n + LD_PAD, &q, -1);
            else
                LAPACKE_dgeqrf_work(LAPACK_COL_MAJOR, n, n, a, n, tau, &q, -1);
            const lapack_int lq = (lapack_int)q;
            lapack_int *ipiv = malloc((size_t)(liw > n ? liw : n) * sizeof(lapack_int));
            double *qrwork = malloc((size_t)(lq > 1 ? lq : 1) * sizeof(double));
            if (!a || !work || !f1 || !fn || !ipiv || !tau || !qrwork || (r == R_GESVD && !uv))
                die("malloc");
            make_input(r, n, a);
            double t[NCONF][MAX_REPS];
            /* Warm-up: one of each (page faults of the matrices, OpenBLAS's
             * thread pool), untimed, keeping the daemons' factors. */
            run_daemon(&sides[0], r, n, a, f1);
            run_daemon(&sides[1], r, n, a, fn);
            run_lapack(r, n, a, work, ipiv, tau, qrwork, lq, liw, uv, 1);
            run_lapack(r, n, a, work, ipiv, tau, qrwork, lq, liw, uv, cpus);
            for (int k = 0; k < reps; k++) {
                t[ONE_CORE][k] = run_daemon(&sides[0], r, n, a, NULL);
                t[ALL_CORES][k] = run_daemon(&sides[1], r, n, a, NULL);
                t[LAPACK_1][k] = run_lapack(r, n, a, work, ipiv, tau, qrwork, lq, liw, uv, 1);
                t[LAPACK_N][k] = run_lapack(r, n, a, work, ipiv, tau, qrwork, lq, liw, uv, cpus);
            }
            const double flop = (r == R_POTRF   ? 1.0
                                 : r == R_GETRF ? 2.0
                                 : r == R_GEQRF ? 4.0
                                 : r == R_SYEVD ? 27.0
                                 : r == R_POTRS ? 6.0
                                 : r == R_POTRI ? 2.0
                                                : 63.0) *
                                n * n * (double)n / 3.0;
            double med[NCONF];
            printf("%s\n    {\"routine\": \"%s\", \"n\": %d, \"reps\": %d", first ? "" : ",",
                   rname[r], n, reps);
            first = 0;
            for (int c = 0; c < NCONF; c++) {
                const bench_stats st = bench_stats_copy(t[c], reps);
                med[c] = st.median;
                printf(",\n     \"%s\": {\"median_ms\": %.1f, \"min_ms\": %.1f, \"max_ms\": %.1f, "
                       "\"gflops\": %.1f}",
                       conf_name[c], st.median, st.min, st.max, flop / st.median / 1e6);
            }
            printf(",\n     \"daemon_cores\": [%u, %u], \"daemon_openblas_core\": \"%s\"",
                   sides[0].st.coreCount, sides[1].st.coreCount, sides[1].blas.blasCore);
            printf(",\n     \"speedup_all_cores_vs_1core\": %.3f", med[ONE_CORE] / med[ALL_CORES]);
            printf(",\n     \"ratio_vs_openblas_threaded\": %.3f", med[LAPACK_N] / med[ALL_CORES]);
            printf(",\n     \"ratio_1core_vs_openblas_1thread\": %.3f",
                   med[LAPACK_1] / med[ONE_CORE]);
            printf(",\n     \"factors_bitwise_equal\": %s}",
                   memcmp(f1, fn, bytes) ? "false" : "true");
            free(a);
            free(work);
            free(f1);
            free(fn);
            free(ipiv);
            free(tau);
            free(qrwork);
            free(uv);
        }
    printf("\n  ]\n}\n");
    return 0;
}
