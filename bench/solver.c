/*
 * solver.c — trnsolver through trnscid versus LAPACK in this process, in one
 * run: dpotrf, dgetrf (partial pivoting), dsyevd (eigenvectors), dgesvd
 * with vectors (jobu = jobvt = 'S', "gesvd") and without ('N', "gesvdn"),
 * and syevj against syevd (both through the daemon) in time and accuracy.
 *
 * For each routine and size n (double precision, n x n):
 *   trnsci:  the matrix lives in the daemon; before each repetition it is
 *            restored with an untimed trnsciMemcpy (host to device: a memcpy
 *            into shared memory on the local transport); the timed unit is
 *            the trnsolverDn call + trnsciStreamSynchronize(NULL), i.e. what
 *            a client waits for (two round trips and the kernel, which
 *            allocates its LAPACK workspace on every call).
 *   LAPACK:  the same LAPACKE_*_work call in this process on the same input,
 *            one OpenBLAS thread, workspace allocated once outside the
 *            timing (LAPACK's best case), the thread pinned to the daemon
 *            worker's CPU (--lapack-cpu) so both run on one core.
 * Repetitions alternate (one trnsci, one LAPACK) after warm-up, so slow
 * periods of a shared machine hit both. The daemon's core workers' run time
 * around each trnsci repetition (trnsciDaemonGetWorkers, read outside the
 * timing) splits a call into the kernel ("trnsci_kernel_ms") and the rest
 * (two round trips, queueing, waking the daemon's threads). Reported: median/min/max ms,
 * ratio = lapack_median / trnsci_median (1.0: no overhead; the issue's
 * target is >= 0.95) and the largest relative difference between the two
 * results (same library, same core: expected 0 or rounding-level).
 *
 * syevj vs syevd (--jacobi-sizes): both through the daemon, eigenvectors
 * requested, default tolerance; time, sweeps, and LAPACK's test ratios
 * ||A V - V W||_F / (n ||A||_F u) and ||V^T V - I||_F / (n u) computed here
 * with dgemm.
 *
 * usage: bench_solver [ADDRESS] [--sizes 256,1024,4096] [--routines
 *                     potrf,getrf,syevd,gesvd,gesvdn] [--jacobi-sizes 256,1024]
 *                     [--reps N] [--lapack-cpu CPU] [--lapack-on-device]
 *                     [--lapack-ld-pad P]
 *
 * --lapack-ld-pad P: the in-process dgesvd's U and VT get leading dimension
 * n + P (default 0: n, as a ported program calls it). trnsci's kernels pad
 * their private copies' columns when n is a multiple of 64
 * (kernels/cpu/solver_util.h), which alone makes gesvd with vectors several
 * times faster at n = 1024; P = 8 gives LAPACK the same layout.
 * bench/run_solver.sh sets the placement up (docs/benchmarks.md).
 */
#define _GNU_SOURCE
#include <cblas.h>
#include <lapacke.h>
#include <math.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <trnsci/trnsci.h>
#include <trnsci/trnsolver.h>

#include "bench_util.h"

#define MAX_SIZES 8
#define MAX_REPS 100

static void die(const char *what) {
    fprintf(stderr, "bench_solver: %s failed: %s\n", what, trnsciGetLastErrorMessage());
    exit(1);
}

typedef enum { R_POTRF, R_GETRF, R_SYEVD, R_GESVD, R_GESVDN, NROUT } routine;
/* gesvd: singular vectors (jobu = jobvt = 'S'); gesvdn: values only ('N'). */
static const char *const rname[NROUT] = {"potrf", "getrf", "syevd", "gesvd", "gesvdn"};

/* Deterministic inputs: uniform [-1, 1) (bench_fill's stream, widened);
 * symmetric for syevd, symmetric and diagonally dominant (so positive
 * definite) for potrf. */
static void make_input(routine r, int n, double *a) {
    const size_t nn = (size_t)n * (size_t)n;
    float *f = malloc(nn * sizeof(float));
    if (!f)
        die("malloc");
    bench_fill(f, nn, 77u + (unsigned)n + 1000u * (unsigned)r);
    for (size_t i = 0; i < nn; i++)
        a[i] = f[i];
    free(f);
    if (r == R_POTRF || r == R_SYEVD)
        for (int j = 0; j < n; j++)
            for (int i = j + 1; i < n; i++)
                a[(size_t)i * n + j] = a[(size_t)j * n + i];
    if (r == R_POTRF)
        for (int i = 0; i < n; i++)
            a[(size_t)i * n + i] += n;
}

/* The device-side buffers of one routine and size. */
typedef struct dev_bufs {
    double *a, *w, *u, *vt;
    int *ipiv, *info;
} dev_bufs;

/* One timed trnsci repetition (the matrix already restored). */
static void trn_once(trnsolverDnHandle_t h, routine r, int n, const dev_bufs *d) {
    trnsolverStatus_t st = TRNSOLVER_STATUS_SUCCESS;
    switch (r) {
    case R_POTRF:
        st = trnsolverDnDpotrf(h, TRNBLAS_FILL_MODE_LOWER, n, d->a, n, NULL, 0, d->info);
        break;
    case R_GETRF: st = trnsolverDnDgetrf(h, n, n, d->a, n, NULL, d->ipiv, d->info); break;
    case R_SYEVD:
        st = trnsolverDnDsyevd(h, TRNSOLVER_EIG_MODE_VECTOR, TRNBLAS_FILL_MODE_LOWER, n, d->a, n,
                               d->w, NULL, 0, d->info);
        break;
    case R_GESVD:
    case R_GESVDN: {
        const signed char job = r == R_GESVD ? 'S' : 'N';
        st = trnsolverDnDgesvd(h, job, job, n, n, d->a, n, d->w, d->u, n, d->vt, n, NULL, 0, NULL,
                               d->info);
        break;
    }
    case NROUT: break;
    }
    if (st != TRNSOLVER_STATUS_SUCCESS)
        die(rname[r]);
    if (trnsciStreamSynchronize(NULL) != trnsciSuccess)
        die("trnsciStreamSynchronize");
}

/* The host-side workspace of one routine and size, queried once. */
typedef struct host_bufs {
    double *w, *u, *vt, *work;
    lapack_int *ipiv, *iwork;
    lapack_int lwork, liwork;
    int ld_uvt; /* U's and VT's leading dimension: n + --lapack-ld-pad */
} host_bufs;

static void host_prepare(routine r, int n, int pad, double *a, host_bufs *hb) {
    memset(hb, 0, sizeof(*hb));
    hb->ld_uvt = n + pad;
    hb->w = malloc((size_t)n * sizeof(double));
    hb->ipiv = malloc((size_t)n * sizeof(lapack_int));
    double q = 0;
    lapack_int iq = 0;
    if (r == R_SYEVD) {
        LAPACKE_dsyevd_work(LAPACK_COL_MAJOR, 'V', 'L', n, a, n, hb->w, &q, -1, &iq, -1);
        hb->liwork = iq;
        hb->iwork = malloc((size_t)iq * sizeof(lapack_int));
    } else if (r == R_GESVD || r == R_GESVDN) {
        const char job = r == R_GESVD ? 'S' : 'N';
        hb->u = malloc((size_t)hb->ld_uvt * n * sizeof(double));
        hb->vt = malloc((size_t)hb->ld_uvt * n * sizeof(double));
        LAPACKE_dgesvd_work(LAPACK_COL_MAJOR, job, job, n, n, a, n, hb->w, hb->u, hb->ld_uvt,
                            hb->vt, hb->ld_uvt, &q, -1);
    }
    hb->lwork = q > 1 ? (lapack_int)q : 1;
    hb->work = malloc((size_t)hb->lwork * sizeof(double));
    if (!hb->w || !hb->ipiv || !hb->work)
        die("malloc (LAPACK workspace)");
}

static void host_free(host_bufs *hb) {
    free(hb->w);
    free(hb->u);
    free(hb->vt);
    free(hb->work);
    free(hb->ipiv);
    free(hb->iwork);
}

static void lapack_once(routine r, int n, double *a, host_bufs *hb) {
    lapack_int info = 0;
    switch (r) {
    case R_POTRF: info = LAPACKE_dpotrf_work(LAPACK_COL_MAJOR, 'L', n, a, n); break;
    case R_GETRF: info = LAPACKE_dgetrf_work(LAPACK_COL_MAJOR, n, n, a, n, hb->ipiv); break;
    case R_SYEVD:
        info = LAPACKE_dsyevd_work(LAPACK_COL_MAJOR, 'V', 'L', n, a, n, hb->w, hb->work, hb->lwork,
                                   hb->iwork, hb->liwork);
        break;
    case R_GESVD:
    case R_GESVDN: {
        const char job = r == R_GESVD ? 'S' : 'N';
        info = LAPACKE_dgesvd_work(LAPACK_COL_MAJOR, job, job, n, n, a, n, hb->w, hb->u, hb->ld_uvt,
                                   hb->vt, hb->ld_uvt, hb->work, hb->lwork);
        break;
    }
    case NROUT: break;
    }
    if (info != 0) {
        fprintf(stderr, "bench_solver: LAPACK %s info %d\n", rname[r], (int)info);
        exit(1);
    }
}

static double max_rel_diff(const double *got, const double *ref, size_t n) {
    double scale = 0, worst = 0;
    for (size_t i = 0; i < n; i++)
        scale = fabs(ref[i]) > scale ? fabs(ref[i]) : scale;
    for (size_t i = 0; i < n; i++) {
        const double d = fabs(got[i] - ref[i]);
        worst = bench_worse(worst, d);
    }
    return scale > 0 ? worst / scale : worst;
}

typedef struct result {
    routine r;
    int n, reps;
    bench_stats trn, lap, kernel;
    double diff; /* the compared output: the factor (potrf, getrf) or the values */
} result;

/* The daemon's core workers' run time so far (ns). */
static uint64_t core_run_ns(const char *addr) {
    trnsciWorkerInfo w[64];
    int count = 0;
    if (trnsciDaemonGetWorkers(addr, w, 64, &count) != trnsciSuccess)
        die("trnsciDaemonGetWorkers");
    uint64_t ns = 0;
    for (int i = 0; i < count && i < 64; i++)
        if (strcmp(w[i].engine, "core") == 0)
            ns += w[i].usage.runNs;
    return ns;
}

static void pin_or_restore(int cpu, const cpu_set_t *start) {
    if (cpu >= 0)
        bench_pin_self(cpu);
    else
        sched_setaffinity(0, sizeof(*start), start);
}

static result run_one(const char *addr, trnsolverDnHandle_t h, routine r, int n, int reps,
                      int warmup, int lap_cpu, const cpu_set_t *start, int lapack_on_device,
                      int ld_pad) {
    const size_t nn = (size_t)n * (size_t)n, bytes = nn * sizeof(double);
    double *orig = malloc(bytes), *work = NULL, *got = malloc(bytes);
    /* --lapack-on-device: LAPACK's matrix is a device buffer (host-addressable
     * on the local transport), to tell the memory apart from the daemon. */
    if (lapack_on_device) {
        if (trnsciMalloc((void **)&work, bytes) != trnsciSuccess)
            die("trnsciMalloc (LAPACK side)");
    } else {
        work = malloc(bytes);
    }
    if (!orig || !work || !got)
        die("malloc");
    make_input(r, n, orig);
    dev_bufs d;
    memset(&d, 0, sizeof(d));
    if (trnsciMalloc((void **)&d.a, bytes) || trnsciMalloc((void **)&d.w, n * sizeof(double)) ||
        trnsciMalloc((void **)&d.ipiv, n * sizeof(int)) || trnsciMalloc((void **)&d.info, 4))
        die("trnsciMalloc");
    if ((r == R_GESVD || r == R_GESVDN) &&
        (trnsciMalloc((void **)&d.u, bytes) || trnsciMalloc((void **)&d.vt, bytes)))
        die("trnsciMalloc");
    host_bufs hb;
    memcpy(work, orig, bytes);
    host_prepare(r, n, ld_pad, work, &hb);
    double t_trn[MAX_REPS], t_lap[MAX_REPS], t_ker[MAX_REPS];
    for (int k = -warmup; k < reps; k++) {
        if (trnsciMemcpy(d.a, orig, bytes, trnsciMemcpyHostToDevice) != trnsciSuccess)
            die("trnsciMemcpy (restore)");
        const uint64_t run0 = core_run_ns(addr);
        double t0 = bench_now_ms();
        trn_once(h, r, n, &d);
        const double tt = bench_now_ms() - t0;
        const double tk = (double)(core_run_ns(addr) - run0) * 1e-6;
        memcpy(work, orig, bytes);
        pin_or_restore(lap_cpu, start);
        t0 = bench_now_ms();
        lapack_once(r, n, work, &hb);
        const double tl = bench_now_ms() - t0;
        sched_setaffinity(0, sizeof(*start), start);
        if (k >= 0) {
            t_trn[k] = tt;
            t_lap[k] = tl;
            t_ker[k] = tk;
        }
    }
    result res = {.r = r, .n = n, .reps = reps};
    res.trn = bench_stats_of(t_trn, reps);
    res.lap = bench_stats_of(t_lap, reps);
    res.kernel = bench_stats_of(t_ker, reps);
    int info = -1;
    if (trnsciMemcpy(&info, d.info, 4, trnsciMemcpyDeviceToHost) || info != 0)
        die("the daemon's info");
    if (r == R_POTRF || r == R_GETRF) {
        if (trnsciMemcpy(got, d.a, bytes, trnsciMemcpyDeviceToHost))
            die("trnsciMemcpy (result)");
        res.diff = max_rel_diff(got, work, nn);
    } else {
        if (trnsciMemcpy(got, d.w, n * sizeof(double), trnsciMemcpyDeviceToHost))
            die("trnsciMemcpy (values)");
        res.diff = max_rel_diff(got, hb.w, (size_t)n);
    }
    host_free(&hb);
    trnsciFree(d.a);
    trnsciFree(d.w);
    trnsciFree(d.u);
    trnsciFree(d.vt);
    trnsciFree(d.ipiv);
    trnsciFree(d.info);
    free(orig);
    if (lapack_on_device)
        trnsciFree(work);
    else
        free(work);
    free(got);
    return res;
}

/* ---- syevj against syevd --------------------------------------------------------- */

typedef struct jac_result {
    int n, sweeps;
    double syevj_ms, syevd_ms;
    double j_resid, j_orth, d_resid, d_orth, residual;
} jac_result;

/* LAPACK's test ratios for eigenvectors v (n x n) and values w of a. */
static void eig_ratios(int n, const double *a, const double *v, const double *w, double *resid,
                       double *orth) {
    const size_t nn = (size_t)n * (size_t)n;
    double *r = malloc(nn * sizeof(double)), *g = malloc(nn * sizeof(double));
    if (!r || !g)
        die("malloc");
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++)
            r[(size_t)j * n + i] = -v[(size_t)j * n + i] * w[j];
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0, a, n, v, n, 1.0, r, n);
    cblas_dgemm(CblasColMajor, CblasTrans, CblasNoTrans, n, n, n, 1.0, v, n, v, n, 0.0, g, n);
    for (int i = 0; i < n; i++)
        g[(size_t)i * n + i] -= 1.0;
    double rn = 0, gn = 0, an = 0;
    for (size_t i = 0; i < nn; i++) {
        rn += r[i] * r[i];
        gn += g[i] * g[i];
        an += a[i] * a[i];
    }
    const double u = 0x1p-53;
    *resid = sqrt(rn) / (n * sqrt(an) * u);
    *orth = sqrt(gn) / (n * u);
    free(r);
    free(g);
}

static jac_result run_jacobi(trnsolverDnHandle_t h, int n) {
    const size_t nn = (size_t)n * (size_t)n, bytes = nn * sizeof(double);
    double *a = malloc(bytes), *v = malloc(bytes), *w = malloc(n * sizeof(double));
    if (!a || !v || !w)
        die("malloc");
    make_input(R_SYEVD, n, a);
    double *da, *dw;
    int *dinfo;
    if (trnsciMalloc((void **)&da, bytes) || trnsciMalloc((void **)&dw, n * sizeof(double)) ||
        trnsciMalloc((void **)&dinfo, 4))
        die("trnsciMalloc");
    syevjInfo_t params;
    if (trnsolverDnCreateSyevjInfo(&params) != TRNSOLVER_STATUS_SUCCESS)
        die("trnsolverDnCreateSyevjInfo");
    jac_result res = {.n = n};
    for (int pass = 0; pass < 2; pass++) {
        if (trnsciMemcpy(da, a, bytes, trnsciMemcpyHostToDevice))
            die("trnsciMemcpy");
        const double t0 = bench_now_ms();
        const trnsolverStatus_t st =
            pass == 0 ? trnsolverDnDsyevj(h, TRNSOLVER_EIG_MODE_VECTOR, TRNBLAS_FILL_MODE_LOWER, n,
                                          da, n, dw, NULL, 0, dinfo, params)
                      : trnsolverDnDsyevd(h, TRNSOLVER_EIG_MODE_VECTOR, TRNBLAS_FILL_MODE_LOWER, n,
                                          da, n, dw, NULL, 0, dinfo);
        if (st != TRNSOLVER_STATUS_SUCCESS || trnsciStreamSynchronize(NULL) != trnsciSuccess)
            die(pass == 0 ? "syevj" : "syevd");
        const double ms = bench_now_ms() - t0;
        int info = -1;
        if (trnsciMemcpy(&info, dinfo, 4, trnsciMemcpyDeviceToHost) || info != 0)
            die("info");
        if (trnsciMemcpy(v, da, bytes, trnsciMemcpyDeviceToHost) ||
            trnsciMemcpy(w, dw, n * sizeof(double), trnsciMemcpyDeviceToHost))
            die("trnsciMemcpy (results)");
        if (pass == 0) {
            res.syevj_ms = ms;
            eig_ratios(n, a, v, w, &res.j_resid, &res.j_orth);
            if (trnsolverDnXsyevjGetSweeps(h, params, &res.sweeps) ||
                trnsolverDnXsyevjGetResidual(h, params, &res.residual))
                die("syevj params");
        } else {
            res.syevd_ms = ms;
            eig_ratios(n, a, v, w, &res.d_resid, &res.d_orth);
        }
    }
    trnsolverDnDestroySyevjInfo(params);
    trnsciFree(da);
    trnsciFree(dw);
    trnsciFree(dinfo);
    free(a);
    free(v);
    free(w);
    return res;
}

static int parse_list(const char *s, int *out, int max) {
    char buf[256];
    snprintf(buf, sizeof(buf), "%s", s);
    int k = 0;
    for (char *t = strtok(buf, ","); t && k < max; t = strtok(NULL, ","))
        out[k++] = atoi(t);
    return k;
}

int main(int argc, char **argv) {
    const char *addr = NULL, *size_list = NULL, *routine_list = NULL, *jacobi_list = NULL;
    int reps_override = 0, lap_cpu = -1, lapack_on_device = 0, ld_pad = 0;
    const bench_opt opts[] = {{"--sizes", BENCH_OPT_STR, &size_list},
                              {"--routines", BENCH_OPT_STR, &routine_list},
                              {"--jacobi-sizes", BENCH_OPT_STR, &jacobi_list},
                              {"--reps", BENCH_OPT_INT, &reps_override},
                              {"--lapack-cpu", BENCH_OPT_INT, &lap_cpu},
                              {"--lapack-on-device", BENCH_OPT_FLAG, &lapack_on_device},
                              {"--lapack-ld-pad", BENCH_OPT_INT, &ld_pad},
                              {NULL, BENCH_OPT_FLAG, NULL}};
    if (bench_parse_args(opts, argc, argv, &addr) != 0 || reps_override < 0 ||
        reps_override > MAX_REPS || ld_pad < 0 || ld_pad > 4096) {
        fputs("usage: bench_solver [ADDRESS] [--sizes 256,1024,4096] [--routines "
              "potrf,getrf,syevd,gesvd,gesvdn] [--jacobi-sizes 256,1024] [--reps N] [--lapack-cpu "
              "CPU] [--lapack-on-device] [--lapack-ld-pad P]\n",
              stderr);
        return 2;
    }
    int sizes[MAX_SIZES] = {256, 1024, 4096}, nsizes = 3;
    int jsizes[MAX_SIZES] = {256, 1024}, njsizes = 2;
    int use[NROUT] = {1, 1, 1, 1, 1};
    if (size_list)
        nsizes = parse_list(size_list, sizes, MAX_SIZES);
    if (jacobi_list)
        njsizes = *jacobi_list ? parse_list(jacobi_list, jsizes, MAX_SIZES) : 0;
    if (routine_list) {
        char buf[256];
        snprintf(buf, sizeof(buf), "%s", routine_list);
        memset(use, 0, sizeof(use));
        for (char *t = strtok(buf, ","); t; t = strtok(NULL, ","))
            for (int r = 0; r < NROUT; r++)
                use[r] |= !strcmp(t, rname[r]);
    }
    if (!addr)
        addr = getenv("TRNSCI_ADDR");
    openblas_set_num_threads(1);
    cpu_set_t start;
    CPU_ZERO(&start);
    sched_getaffinity(0, sizeof(start), &start);
    char start_cpus[128];
    bench_cpuset_str(&start, start_cpus, sizeof(start_cpus));
    if (trnsciInit(addr) != trnsciSuccess)
        die("trnsciInit");
    trnsolverDnHandle_t h;
    if (trnsolverDnCreate(&h) != TRNSOLVER_STATUS_SUCCESS)
        die("trnsolverDnCreate");
    result res[NROUT * MAX_SIZES];
    int nres = 0;
    for (int r = 0; r < NROUT; r++)
        for (int i = 0; i < nsizes && use[r]; i++) {
            const int n = sizes[i];
            const int reps = reps_override ? reps_override : n >= 4096 ? 3 : n >= 1024 ? 5 : 15;
            res[nres++] = run_one(addr, h, (routine)r, n, reps, n >= 4096 ? 0 : 1, lap_cpu, &start,
                                  lapack_on_device, ld_pad);
            fprintf(stderr, "bench_solver: %s n=%d done\n", rname[r], n);
        }
    jac_result jr[MAX_SIZES];
    for (int i = 0; i < njsizes; i++) {
        jr[i] = run_jacobi(h, jsizes[i]);
        fprintf(stderr, "bench_solver: syevj n=%d done\n", jsizes[i]);
    }

    printf("{\n  \"bench\": \"solver\",\n");
    bench_json_host(",\n");
    printf("  \"placement\": {\"bench_cpus\": \"%s\", \"lapack_cpu\": %d, "
           "\"lapack_on_device\": %s, \"lapack_gesvd_uvt_ld_pad\": %d},\n",
           start_cpus, lap_cpu, lapack_on_device ? "true" : "false", ld_pad);
    printf("  \"results\": [\n");
    for (int i = 0; i < nres; i++) {
        const result *r = &res[i];
        printf("    {\"routine\": \"d%s\", \"n\": %d, \"reps\": %d,\n", rname[r->r], r->n, r->reps);
        printf("     \"trnsci_ms\": {\"median\": %.3f, \"min\": %.3f, \"max\": %.3f},\n",
               r->trn.median, r->trn.min, r->trn.max);
        printf("     \"lapack_ms\": {\"median\": %.3f, \"min\": %.3f, \"max\": %.3f},\n",
               r->lap.median, r->lap.min, r->lap.max);
        printf("     \"trnsci_kernel_ms\": {\"median\": %.3f, \"min\": %.3f, \"max\": %.3f},\n",
               r->kernel.median, r->kernel.min, r->kernel.max);
        printf("     \"ratio\": %.4f, \"ratio_kernel\": %.4f, \"max_rel_diff\": %.3g}%s\n",
               r->lap.median / r->trn.median, r->lap.median / r->kernel.median, r->diff,
               i + 1 < nres ? "," : "");
    }
    printf("  ],\n  \"syevj_vs_syevd\": [\n");
    for (int i = 0; i < njsizes; i++) {
        const jac_result *j = &jr[i];
        printf("    {\"n\": %d, \"syevj_ms\": %.1f, \"syevd_ms\": %.1f, \"time_ratio\": %.2f, "
               "\"syevj_sweeps\": %d, \"syevj_residual\": %.3g,\n",
               j->n, j->syevj_ms, j->syevd_ms, j->syevj_ms / j->syevd_ms, j->sweeps, j->residual);
        printf("     \"syevj_resid_ratio\": %.2f, \"syevd_resid_ratio\": %.2f, "
               "\"syevj_orth_ratio\": %.2f, \"syevd_orth_ratio\": %.2f}%s\n",
               j->j_resid, j->d_resid, j->j_orth, j->d_orth, i + 1 < njsizes ? "," : "");
    }
    printf("  ]\n}\n");
    trnsolverDnDestroy(h);
    return 0;
}
