/*
 * df_mp2.c — a density-fitted MP2 correlation energy through trnscid, using
 * five trnsci libraries in one workload (docs/df_mp2.md):
 *
 *   inputs    .npy files (--input DIR) or a synthetic system drawn with
 *             trnrand (Philox) and a metric J = G G^T / naux + 0.1 I made
 *             with trnblasDgemm (inputs.c);
 *   cholesky  J = L L^T with trnsolverDn{S,D}potrf;
 *   aoToMo    B_raw[i,a,Q] = sum Cocc[mu,i] Cvir[nu,a] (Q|mu nu), trntensorAoToMo,
 *             or, with --screen, over the AO pairs that matter through
 *             trnsparse (Schwarz bounds, a CSR SpMM) and a strided batched
 *             trnblas GEMM (screen.c);
 *   fit       B = L^-1 B_raw (so that sum_P B_iaP B_jbP = (ia|Q) J^-1_QR (R|jb)),
 *             trnblas{S,D}trsm on the naux x (nocc nvir) matrix;
 *   mp2       E = sum (ia|jb)(2(ia|jb) - (ib|ja)) / (e_i + e_j - e_a - e_b),
 *             trntensorMp2Energy.
 *
 * --precision mixed fits the AO integrals instead (fitAO: trnblasDtrsm from
 * the right on the nbf^2 x naux matrix, in float64), converts them to
 * float32 on the daemon (convert: trntensorPermute from R_64F to R_32F),
 * and runs aoToMo and mp2 in float32 on the fitted integrals (df_mp2.h).
 *
 * Each stage is synchronized and timed; the program prints the energy, the
 * stages' times, and where they ran (the daemon's backend and cores, the
 * transport). --json prints the same as one JSON object. --save DIR writes
 * the inputs used (synthetic ones included) as .npy files for a reference
 * (tests/integration/df_mp2_ref.py).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "df_mp2.h"
#include "trnsci/trnblas.h"
#include "trnsci/trnsci.h"
#include "trnsci/trnsolver.h"
#include "trnsci/trntensor.h"
#include "trnsci/trntensor_chem.h"

#define MAX_STAGES 8
#define MAX_REPEAT 65

/* The stages' names and times, in the order they ran; the last `repeated`
 * of them run --repeat times (the first run's times are kept, the others'
 * go to warm[]). */
typedef struct stage_log {
    const char *name[MAX_STAGES];
    double first[MAX_STAGES];
    double warm[MAX_STAGES][MAX_REPEAT];
    int n, repeated_from;
} stage_log;

static const char *const precision_names[] = {"fp64", "fp32", "mixed"};

int df_die(const char *what) {
    fprintf(stderr, "df_mp2: %s: %s\n", what, trnsciGetLastErrorMessage());
    return 1;
}

void *df_xcalloc(size_t n, size_t es) {
    void *p = calloc(n ? n : 1, es);
    if (!p) {
        fprintf(stderr, "df_mp2: out of memory\n");
        exit(1);
    }
    return p;
}

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b) {
    const double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The median of v[0 .. n-1] (sorts v). */
static double median(double *v, int n) {
    qsort(v, (size_t)n, sizeof(*v), cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* Records stage `name`'s time in run rep. */
static void stage_done(stage_log *lg, int *slot, const char *name, int rep, double seconds) {
    const int i = (*slot)++;
    lg->name[i] = name;
    if (rep == 0)
        lg->first[i] = seconds;
    else
        lg->warm[i][rep - 1] = seconds;
    if (i + 1 > lg->n)
        lg->n = i + 1;
}

static void usage(void) {
    fprintf(stderr,
            "usage: df_mp2 [--input DIR --nocc N] [--nbf N --nocc N --naux N [--nmo N] --seed S\n"
            "              [--decay D]] [--precision fp64|fp32|mixed] [--fp32]\n"
            "              [--screen THRESHOLD] [--json] [--save DIR] [--addr ADDRESS]\n"
            "              [--repeat R]\n"
            "Without --input: a synthetic system (default nbf 264, nocc 21, naux 666).\n");
}

static int parse(int argc, char **argv, df_opts *o) {
    *o = (df_opts){.nbf = 264, .nocc = 21, .naux = 666, .nmo = 0, .seed = 2024, .repeat = 1};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--fp32"))
            o->precision = DF_FP32;
        else if (!strcmp(a, "--json"))
            o->json = 1;
        else if (v && !strcmp(a, "--precision")) {
            const char *p = argv[++i];
            o->precision = !strcmp(p, "fp64")    ? DF_FP64
                           : !strcmp(p, "fp32")  ? DF_FP32
                           : !strcmp(p, "mixed") ? DF_MIXED
                                                 : (df_precision)-1;
            if ((int)o->precision < 0) {
                fprintf(stderr, "df_mp2: --precision %s: expected fp64, fp32 or mixed\n", p);
                return -1;
            }
        } else if (v && !strcmp(a, "--input"))
            o->input = argv[++i];
        else if (v && !strcmp(a, "--save"))
            o->save = argv[++i];
        else if (v && !strcmp(a, "--addr"))
            o->addr = argv[++i];
        else if (v && !strcmp(a, "--nbf"))
            o->nbf = atoi(argv[++i]);
        else if (v && !strcmp(a, "--nocc"))
            o->nocc = atoi(argv[++i]);
        else if (v && !strcmp(a, "--naux"))
            o->naux = atoi(argv[++i]);
        else if (v && !strcmp(a, "--nmo"))
            o->nmo = atoi(argv[++i]);
        else if (v && !strcmp(a, "--repeat"))
            o->repeat = atoi(argv[++i]);
        else if (v && !strcmp(a, "--seed"))
            o->seed = strtoull(argv[++i], NULL, 10);
        else if (v && !strcmp(a, "--decay"))
            o->decay = strtod(argv[++i], NULL);
        else if (v && !strcmp(a, "--screen"))
            o->screen = strtod(argv[++i], NULL);
        else {
            usage();
            return -1;
        }
    }
    if (!o->nmo)
        o->nmo = o->nbf;
    if (o->repeat < 1 || o->repeat > MAX_REPEAT) {
        fprintf(stderr, "df_mp2: --repeat must be 1 .. %d\n", MAX_REPEAT);
        return -1;
    }
    if (!(o->screen >= 0) || !(o->decay >= 0) || isinf(o->screen) || isinf(o->decay)) {
        fprintf(stderr, "df_mp2: --screen and --decay take a finite value >= 0\n");
        return -1;
    }
    if (o->screen > 0 && o->precision == DF_MIXED) {
        fprintf(stderr, "df_mp2: --screen works on the unfitted integrals: use it with "
                        "--precision fp64 or fp32\n");
        return -1;
    }
    if (o->nbf < 1 || o->naux < 1 || o->nocc < 1 || o->nmo <= o->nocc || o->nmo > o->nbf ||
        o->nbf > 46340 || o->naux > 46340 || (int64_t)o->nocc * (o->nmo - o->nocc) > INT32_MAX) {
        fprintf(stderr, "df_mp2: need 1 <= nocc < nmo <= nbf, naux >= 1 (and sizes that fit)\n");
        return -1;
    }
    return 0;
}

/* J = L L^T in place (float32 when fp32). */
static int cholesky(trnsolverDnHandle_t sh, const df_sys *s, void *d_j, int fp32, void **d_work,
                    int *d_info) {
    int lwork = 0;
    if (fp32)
        DF_CHECK(trnsolverDnSpotrf_bufferSize(sh, TRNBLAS_FILL_MODE_LOWER, s->naux, d_j, s->naux,
                                              &lwork),
                 "potrf_bufferSize");
    else
        DF_CHECK(trnsolverDnDpotrf_bufferSize(sh, TRNBLAS_FILL_MODE_LOWER, s->naux, d_j, s->naux,
                                              &lwork),
                 "potrf_bufferSize");
    DF_CHECK(trnsciMalloc(d_work, (size_t)(lwork > 0 ? lwork : 1) * (fp32 ? 4 : 8)),
             "trnsciMalloc");
    if (fp32)
        DF_CHECK(trnsolverDnSpotrf(sh, TRNBLAS_FILL_MODE_LOWER, s->naux, d_j, s->naux, *d_work,
                                   lwork, d_info),
                 "trnsolverDnSpotrf");
    else
        DF_CHECK(trnsolverDnDpotrf(sh, TRNBLAS_FILL_MODE_LOWER, s->naux, d_j, s->naux, *d_work,
                                   lwork, d_info),
                 "trnsolverDnDpotrf");
    int info = 0;
    DF_CHECK(trnsciMemcpy(&info, d_info, sizeof(int), trnsciMemcpyDeviceToHost), "potrf");
    if (info != 0) {
        fprintf(stderr, "df_mp2: the metric is not positive definite (potrf info %d)\n", info);
        return 1;
    }
    return 0;
}

/* MIXED: the AO integrals fitted in float64, then converted to float32 on
 * the daemon. The integrals are an nbf^2 x naux column-major matrix X
 * (X[mu nu, P] = (P|mu nu)); the fit is X L^-T (B_P = sum_Q L^-1_PQ (Q|.)),
 * a TRSM from the right. Returns the float32 copy in *d_l32 and frees d_l. */
static int fit_ao_and_convert(const df_sys *s, trnblasHandle_t bh, trntensorHandle_t th,
                              const void *d_l_factor, double *d_l, void **d_l32, stage_log *lg,
                              int *slot) {
    const int64_t n2 = (int64_t)s->nbf * s->nbf, total = n2 * s->naux;
    if (n2 > INT32_MAX) {
        fprintf(stderr, "df_mp2: nbf^2 is too large for one TRSM\n");
        return 1;
    }
    double t0 = now_s();
    const double one = 1.0;
    DF_CHECK(trnblasDtrsm(bh, TRNBLAS_SIDE_RIGHT, TRNBLAS_FILL_MODE_LOWER, TRNBLAS_OP_T,
                          TRNBLAS_DIAG_NON_UNIT, (int)n2, s->naux, &one, d_l_factor, s->naux, d_l,
                          (int)n2),
             "trnblasDtrsm (fit of the AO integrals)");
    DF_CHECK(trnsciDeviceSynchronize(), "trnblasDtrsm");
    stage_done(lg, slot, "fitAO", 0, now_s() - t0);

    t0 = now_s();
    DF_CHECK(trnsciMalloc(d_l32, (size_t)total * 4), "trnsciMalloc (float32 integrals)");
    trntensorTensorDescriptor_t da, db;
    trntensorOperationDescriptor_t op;
    trntensorPlan_t plan;
    const int64_t extent[1] = {total};
    const int32_t mode[1] = {'x'};
    DF_CHECK(trntensorCreateTensorDescriptor(th, &da, 1, extent, NULL, TRNSCI_R_64F, 8),
             "trntensorCreateTensorDescriptor");
    DF_CHECK(trntensorCreateTensorDescriptor(th, &db, 1, extent, NULL, TRNSCI_R_32F, 4),
             "trntensorCreateTensorDescriptor");
    DF_CHECK(trntensorCreatePermutation(th, &op, da, mode, TRNTENSOR_OP_IDENTITY, db, mode,
                                        TRNTENSOR_COMPUTE_DESC_64F),
             "trntensorCreatePermutation (float64 -> float32)");
    DF_CHECK(trntensorCreatePlan(th, &plan, op, NULL, 0), "trntensorCreatePlan");
    DF_CHECK(trntensorPermute(th, plan, &one, d_l, *d_l32, NULL), "trntensorPermute");
    DF_CHECK(trnsciDeviceSynchronize(), "trntensorPermute");
    trntensorDestroyPlan(plan);
    trntensorDestroyOperationDescriptor(op);
    trntensorDestroyTensorDescriptor(da);
    trntensorDestroyTensorDescriptor(db);
    trnsciFree(d_l);
    stage_done(lg, slot, "convert", 0, now_s() - t0);
    return 0;
}

/* B = L^-1 B_raw: B_raw is naux x (nocc nvir), column-major, ld naux. */
static int fit(const df_sys *s, trnblasHandle_t bh, const void *d_j, void *d_b, int fp32) {
    const int ncols = s->nocc * s->nvir;
    if (fp32) {
        const float one = 1.0f;
        DF_CHECK(trnblasStrsm(bh, TRNBLAS_SIDE_LEFT, TRNBLAS_FILL_MODE_LOWER, TRNBLAS_OP_N,
                              TRNBLAS_DIAG_NON_UNIT, s->naux, ncols, &one, d_j, s->naux, d_b,
                              s->naux),
                 "trnblasStrsm");
    } else {
        const double one = 1.0;
        DF_CHECK(trnblasDtrsm(bh, TRNBLAS_SIDE_LEFT, TRNBLAS_FILL_MODE_LOWER, TRNBLAS_OP_N,
                              TRNBLAS_DIAG_NON_UNIT, s->naux, ncols, &one, d_j, s->naux, d_b,
                              s->naux),
                 "trnblasDtrsm");
    }
    DF_CHECK(trnsciDeviceSynchronize(), "trsm");
    return 0;
}

static void print_report(const df_opts *o, const df_sys *s, const trnsciDaemonStatus *st, int local,
                         double energy, stage_log *lg, const df_screen_stats *sc) {
    const char *transport = local ? "local (shared memory)" : "gRPC";
    const int warm_runs = o->repeat - 1;
    double warm_med[MAX_STAGES] = {0};
    for (int i = lg->repeated_from; i < lg->n && warm_runs > 0; i++)
        warm_med[i] = median(lg->warm[i], warm_runs);
    if (o->json) {
        printf("{\"bench\": \"df_mp2\", \"precision\": \"%s\", \"nbf\": %d, \"nocc\": %d, "
               "\"nvir\": %d, \"naux\": %d, \"synthetic\": %s, \"energy\": %.17g, "
               "\"backend\": \"%s\", \"daemon_cores\": %u, \"transport\": \"%s\", ",
               precision_names[o->precision], s->nbf, s->nocc, s->nvir, s->naux,
               o->input ? "false" : "true", energy, st->backend, st->coreCount, transport);
        if (o->screen > 0)
            printf("\"screen\": {\"threshold\": %g, \"pairs\": %lld, \"pairs_kept\": %lld, "
                   "\"bound\": %g}, ",
                   o->screen, (long long)sc->pairs, (long long)sc->pairs_kept, sc->bound);
        printf("\"stages_ms\": {");
        for (int i = 0; i < lg->n; i++)
            printf("%s\"%s\": %.3f", i ? ", " : "", lg->name[i], 1e3 * lg->first[i]);
        printf("}");
        if (warm_runs > 0) {
            printf(", \"warm_runs\": %d, \"warm_ms\": {", warm_runs);
            for (int i = lg->repeated_from; i < lg->n; i++)
                printf("%s\"%s\": %.3f", i > lg->repeated_from ? ", " : "", lg->name[i],
                       1e3 * warm_med[i]);
            printf("}");
        }
        printf("}\n");
        return;
    }
    printf("DF-MP2 (%s) nbf %d nocc %d nvir %d naux %d (%s)\n", precision_names[o->precision],
           s->nbf, s->nocc, s->nvir, s->naux, o->input ? o->input : "synthetic");
    printf("E(MP2 correlation) = %.12f Eh\n", energy);
    if (o->screen > 0)
        printf("screening at %g kept %lld of %lld AO pairs (each B_raw entry moves by <= %.3g)\n",
               o->screen, (long long)sc->pairs_kept, (long long)sc->pairs, sc->bound);
    printf("ran on trnscid %s, backend %s, %u cores, over %s\n", st->daemonVersion, st->backend,
           st->coreCount, transport);
    for (int i = 0; i < lg->n; i++)
        printf("  %-9s %10.3f ms\n", lg->name[i], 1e3 * lg->first[i]);
    if (warm_runs > 0) {
        printf("  warm (median of %d):", warm_runs);
        for (int i = lg->repeated_from; i < lg->n; i++)
            printf("%s %s %.3f ms", i > lg->repeated_from ? "," : "", lg->name[i],
                   1e3 * warm_med[i]);
        printf("\n");
    }
}

int main(int argc, char **argv) {
    df_opts o;
    if (parse(argc, argv, &o) != 0)
        return 2;
    DF_CHECK(trnsciInit(o.addr), "trnsciInit");
    trnsciDaemonStatus st;
    DF_CHECK(trnsciDaemonGetStatus(o.addr, &st), "trnsciDaemonGetStatus");
    const char *addr = o.addr ? o.addr : getenv("TRNSCI_ADDR");
    const int local = !addr || !*addr || !strncmp(addr, "unix:", 5);
    static stage_log lg; /* large (the warm times): not on the stack */
    int slot = 0;

    /* Precisions: the metric and its factor (f64 unless FP32), the integrals
     * as uploaded (f64 unless FP32; MIXED converts them after the fit), and
     * the transformation and pair energies (f64 only for FP64). */
    const int fp32_metric = o.precision == DF_FP32, fp32_ints = o.precision == DF_FP32,
              fp32_work = o.precision != DF_FP64;
    const trnsciDataType_t dt = fp32_work ? TRNSCI_R_32F : TRNSCI_R_64F;

    double t0 = now_s();
    df_sys s = {0};
    if (o.input ? df_load_inputs(&o, &s) : df_synthetic(&o, &s))
        return 1;
    if (o.save && df_save_inputs(o.save, &s))
        return 1;
    const size_t nbf = (size_t)s.nbf, naux = (size_t)s.naux, nocc = (size_t)s.nocc,
                 nvir = (size_t)s.nvir;
    void *d_l = df_upload(s.l, nbf * nbf * naux, fp32_ints);
    void *d_j = df_upload(s.j, naux * naux, fp32_metric);
    void *d_c = df_upload(s.c, nbf * (size_t)s.nmo, fp32_work);
    double *d_eo = df_upload(s.eps, nocc, 0), *d_ev = df_upload(s.eps + nocc, nvir, 0);
    void *d_b = NULL, *d_work = NULL;
    double *d_e = NULL;
    int *d_info = NULL;
    if (!d_l || !d_j || !d_c || !d_eo || !d_ev)
        return df_die("upload");
    DF_CHECK(trnsciMalloc(&d_b, nocc * nvir * naux * (fp32_work ? 4 : 8)), "trnsciMalloc B");
    DF_CHECK(trnsciMalloc((void **)&d_e, 8), "trnsciMalloc");
    DF_CHECK(trnsciMalloc((void **)&d_info, sizeof(int)), "trnsciMalloc");
    DF_CHECK(trnsciDeviceSynchronize(), "inputs");
    stage_done(&lg, &slot, "inputs", 0, now_s() - t0);

    trnsolverDnHandle_t sh;
    trnblasHandle_t bh;
    trntensorHandle_t th;
    DF_CHECK(trnsolverDnCreate(&sh), "trnsolverDnCreate");
    DF_CHECK(trnblasCreate(&bh), "trnblasCreate");
    DF_CHECK(trntensorCreate(&th), "trntensorCreate");

    t0 = now_s();
    if (cholesky(sh, &s, d_j, fp32_metric, &d_work, d_info))
        return 1;
    stage_done(&lg, &slot, "cholesky", 0, now_s() - t0);
    if (o.precision == DF_MIXED &&
        fit_ao_and_convert(&s, bh, th, d_j, d_l, &d_l, &lg, &slot)) /* d_l: now float32 */
        return 1;

    /* The transformation, the fit (unless MIXED fitted already) and the
     * energy; with --repeat R they run R times (the first on freshly
     * uploaded buffers, "cold"; the others "warm", their medians reported). */
    lg.repeated_from = slot;
    df_screen_stats sc = {0};
    double energy = NAN;
    for (int rep = 0; rep < o.repeat; rep++) {
        slot = lg.repeated_from;
        t0 = now_s();
        if (o.screen > 0) {
            if (df_screened_ao_to_mo(&s, o.screen, fp32_work, d_c, d_b, &sc))
                return 1;
        } else {
            const char *c_vir = (const char *)d_c + nocc * nbf * (fp32_work ? 4 : 8);
            DF_CHECK(trntensorAoToMo(th, dt, s.nbf, s.nocc, s.nvir, s.naux, d_c, s.nbf, c_vir,
                                     s.nbf, d_l, d_b),
                     "trntensorAoToMo");
            DF_CHECK(trnsciDeviceSynchronize(), "trntensorAoToMo");
        }
        stage_done(&lg, &slot, "aoToMo", rep, now_s() - t0);

        if (o.precision != DF_MIXED) {
            t0 = now_s();
            if (fit(&s, bh, d_j, d_b, fp32_work))
                return 1;
            stage_done(&lg, &slot, "fit", rep, now_s() - t0);
        }

        t0 = now_s();
        DF_CHECK(trntensorMp2Energy(th, dt, s.nocc, s.nvir, s.naux, d_b, d_eo, d_ev, d_e),
                 "trntensorMp2Energy");
        DF_CHECK(trnsciMemcpy(&energy, d_e, 8, trnsciMemcpyDeviceToHost), "trntensorMp2Energy");
        stage_done(&lg, &slot, "mp2", rep, now_s() - t0);
    }
    print_report(&o, &s, &st, local, energy, &lg, &sc);

    trntensorDestroy(th);
    trnblasDestroy(bh);
    trnsolverDnDestroy(sh);
    void *ptrs[] = {d_l, d_j, d_c, d_eo, d_ev, d_b, d_e, d_info, d_work};
    for (size_t i = 0; i < sizeof(ptrs) / sizeof(ptrs[0]); i++)
        trnsciFree(ptrs[i]);
    df_sys_free(&s);
    return 0;
}
