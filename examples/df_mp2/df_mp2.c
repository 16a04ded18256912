/*
 * df_mp2.c — a density-fitted MP2 correlation energy through trnscid, using
 * four trnsci libraries in one workload (docs/df_mp2.md):
 *
 *   inputs    .npy files (--input DIR) or a synthetic system drawn with
 *             trnrand (Philox) and a metric J = G G^T / naux + 0.1 I made
 *             with trnblasDgemm;
 *   cholesky  J = L L^T with trnsolverDn{S,D}potrf;
 *   aoToMo    B_raw[i,a,Q] = sum Cocc[mu,i] Cvir[nu,a] (Q|mu nu), trntensorAoToMo;
 *   fit       B = L^-1 B_raw (so that sum_P B_iaP B_jbP = (ia|Q) J^-1_QR (R|jb)),
 *             trnblas{S,D}trsm on the naux x (nocc nvir) matrix;
 *   mp2       E = sum (ia|jb)(2(ia|jb) - (ib|ja)) / (e_i + e_j - e_a - e_b),
 *             trntensorMp2Energy.
 *
 * Each stage is synchronized and timed; the program prints the energy, the
 * stages' times, and where they ran (the daemon's backend and cores, the
 * transport). --json prints the same as one JSON object. --save DIR writes
 * the inputs used (synthetic ones included) as .npy files for a reference
 * (tests/integration/df_mp2_ref.py).
 *
 * Inputs (--input DIR): Lpq.npy (naux, nbf, nbf) = (P|mu nu); metric.npy
 * (naux, naux) = (P|Q); C.npy (nbf, nmo) MO coefficients; eps.npy (nmo)
 * orbital energies, ascending; --nocc gives the number of doubly occupied
 * orbitals. float64 or float32, C or Fortran order.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tools/npy.h"
#include "trnsci/trnblas.h"
#include "trnsci/trnrand.h"
#include "trnsci/trnsci.h"
#include "trnsci/trnsolver.h"
#include "trnsci/trntensor_chem.h"

typedef struct opts {
    const char *input, *save, *addr;
    int nbf, nocc, naux, nmo, fp32, json, repeat;
    unsigned long long seed;
} opts;

/* The system on the host, in float64 (converted to the run's precision
 * when uploaded). Layouts: L[mu + nu nbf + P nbf^2] = (P|mu nu) (the
 * layout trntensorAoToMo takes), J and C column-major. */
typedef struct sys {
    int nbf, nocc, nvir, naux, nmo;
    double *l, *j, *c, *eps;
} sys;

#define NSTAGES 5
static const char *const stage_names[NSTAGES] = {"inputs", "cholesky", "aoToMo", "fit", "mp2"};

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

static int die(const char *what) {
    fprintf(stderr, "df_mp2: %s: %s\n", what, trnsciGetLastErrorMessage());
    return 1;
}

#define CHECK(call, what)                                                                          \
    do {                                                                                           \
        if ((call) != 0)                                                                           \
            return die(what);                                                                      \
    } while (0)

static void usage(void) {
    fprintf(stderr,
            "usage: df_mp2 [--input DIR --nocc N] [--nbf N --nocc N --naux N [--nmo N] --seed S]\n"
            "              [--fp32] [--json] [--save DIR] [--addr ADDRESS] [--repeat R]\n"
            "Without --input: a synthetic system (default nbf 264, nocc 21, naux 666).\n");
}

static int parse(int argc, char **argv, opts *o) {
    *o = (opts){.nbf = 264, .nocc = 21, .naux = 666, .nmo = 0, .seed = 2024, .repeat = 1};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--fp32"))
            o->fp32 = 1;
        else if (!strcmp(a, "--json"))
            o->json = 1;
        else if (v && !strcmp(a, "--input"))
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
        else {
            usage();
            return -1;
        }
    }
    if (!o->nmo)
        o->nmo = o->nbf;
    if (o->repeat < 1 || o->repeat > 65) {
        fprintf(stderr, "df_mp2: --repeat must be 1 .. 65\n");
        return -1;
    }
    if (o->nbf < 1 || o->naux < 1 || o->nocc < 1 || o->nmo <= o->nocc || o->nmo > o->nbf ||
        o->nbf > 46340 || o->naux > 46340 || (int64_t)o->nocc * (o->nmo - o->nocc) > INT32_MAX) {
        fprintf(stderr, "df_mp2: need 1 <= nocc < nmo <= nbf, naux >= 1 (and sizes that fit)\n");
        return -1;
    }
    return 0;
}

static void *xcalloc(size_t n, size_t es) {
    void *p = calloc(n ? n : 1, es);
    if (!p) {
        fprintf(stderr, "df_mp2: out of memory\n");
        exit(1);
    }
    return p;
}

/* Loads DIR/name and checks its shape against want[0 .. ndim-1]. */
static int load(const char *dir, const char *name, int ndim, const uint64_t *want, npy_array *a) {
    char path[4096], err[512];
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    if (npy_load(path, a, err, sizeof(err)) != 0) {
        fprintf(stderr, "df_mp2: %s\n", err);
        return -1;
    }
    int ok = a->ndim == ndim;
    for (int i = 0; ok && i < ndim; i++)
        ok = want[i] == 0 || a->shape[i] == want[i];
    if (!ok) {
        fprintf(stderr, "df_mp2: %s has the wrong shape\n", path);
        npy_free(a);
        return -1;
    }
    return 0;
}

static int load_inputs(const opts *o, sys *s) {
    npy_array lpq, met, c, eps;
    const uint64_t any3[3] = {0, 0, 0};
    if (load(o->input, "Lpq.npy", 3, any3, &lpq))
        return -1;
    const uint64_t naux = lpq.shape[0], nbf = lpq.shape[1];
    const uint64_t wm[2] = {naux, naux}, wc[2] = {nbf, 0};
    if (lpq.shape[2] != nbf || naux > 46340 || nbf > 46340 ||
        load(o->input, "metric.npy", 2, wm, &met))
        return -1;
    if (load(o->input, "C.npy", 2, wc, &c))
        return -1;
    const uint64_t we[1] = {c.shape[1]};
    if (load(o->input, "eps.npy", 1, we, &eps))
        return -1;
    s->nbf = (int)nbf;
    s->naux = (int)naux;
    s->nmo = (int)c.shape[1];
    s->nocc = o->nocc;
    if (s->nmo <= s->nocc || s->nmo > s->nbf) {
        fprintf(stderr, "df_mp2: need nocc < nmo <= nbf (nmo %d, nocc %d)\n", s->nmo, s->nocc);
        return -1;
    }
    s->nvir = s->nmo - s->nocc;
    s->l = xcalloc((size_t)nbf * nbf * naux, 8);
    s->j = xcalloc((size_t)naux * naux, 8);
    s->c = xcalloc((size_t)nbf * (size_t)s->nmo, 8);
    s->eps = xcalloc((size_t)s->nmo, 8);
    uint64_t ix[3];
    for (ix[0] = 0; ix[0] < naux; ix[0]++)
        for (ix[1] = 0; ix[1] < nbf; ix[1]++)
            for (ix[2] = 0; ix[2] < nbf; ix[2]++)
                s->l[ix[1] + ix[2] * nbf + ix[0] * nbf * nbf] = npy_at(&lpq, npy_offset(&lpq, ix));
    for (ix[0] = 0; ix[0] < naux; ix[0]++)
        for (ix[1] = 0; ix[1] < naux; ix[1]++)
            s->j[ix[0] + ix[1] * naux] = npy_at(&met, npy_offset(&met, ix));
    for (ix[0] = 0; ix[0] < nbf; ix[0]++)
        for (ix[1] = 0; ix[1] < (uint64_t)s->nmo; ix[1]++)
            s->c[ix[0] + ix[1] * nbf] = npy_at(&c, npy_offset(&c, ix));
    for (ix[0] = 0; ix[0] < (uint64_t)s->nmo; ix[0]++)
        s->eps[ix[0]] = npy_at(&eps, npy_offset(&eps, ix));
    npy_free(&lpq);
    npy_free(&met);
    npy_free(&c);
    npy_free(&eps);
    return 0;
}

/* A synthetic system: uniform numbers from trnrand's Philox generator on
 * the daemon, shaped on the host (symmetric (P|mu nu), centred C with unit
 * columns on average, orbital energies with a gap), and the metric made
 * on the daemon: J = G G^T / naux + 0.1 I, G with unit-variance entries. */
static int synthetic(const opts *o, sys *s) {
    s->nbf = o->nbf;
    s->nocc = o->nocc;
    s->naux = o->naux;
    s->nmo = o->nmo;
    s->nvir = o->nmo - o->nocc;
    const size_t nl = (size_t)s->nbf * s->nbf * s->naux, nj = (size_t)s->naux * s->naux,
                 nc = (size_t)s->nbf * s->nmo, ne = (size_t)s->nmo;
    double *d_r, *d_j;
    CHECK(trnsciMalloc((void **)&d_r, (nl + nj + nc + ne) * 8), "trnsciMalloc");
    CHECK(trnsciMalloc((void **)&d_j, nj * 8), "trnsciMalloc");
    trnrandGenerator_t g;
    CHECK(trnrandCreateGenerator(&g, TRNRAND_RNG_PSEUDO_PHILOX4_32_10), "trnrandCreateGenerator");
    CHECK(trnrandSetPseudoRandomGeneratorSeed(g, o->seed), "trnrandSetPseudoRandomGeneratorSeed");
    CHECK(trnrandGenerateUniformDouble(g, d_r, nl + nj + nc + ne), "trnrandGenerateUniformDouble");
    double *r = xcalloc(nl + nj + nc + ne, 8);
    CHECK(trnsciMemcpy(r, d_r, (nl + nj + nc + ne) * 8, trnsciMemcpyDeviceToHost), "trnsciMemcpy");
    const double *rl = r, *rj = r + nl, *rc = rj + nj, *re = rc + nc;
    s->l = xcalloc(nl, 8);
    s->j = xcalloc(nj, 8);
    s->c = xcalloc(nc, 8);
    s->eps = xcalloc(ne, 8);
    const size_t nbf = (size_t)s->nbf;
    const double scale_l = 0.5 / (double)nbf;
    for (size_t p = 0; p < (size_t)s->naux; p++)
        for (size_t nu = 0; nu < nbf; nu++)
            for (size_t mu = 0; mu <= nu; mu++) {
                const double v =
                    (rl[p * nbf * nbf + mu + nu * nbf] + rl[p * nbf * nbf + nu + mu * nbf] - 1.0) *
                    scale_l;
                s->l[p * nbf * nbf + mu + nu * nbf] = s->l[p * nbf * nbf + nu + mu * nbf] = v;
            }
    for (size_t k = 0; k < nc; k++)
        s->c[k] = (rc[k] - 0.5) * sqrt(12.0 / (double)nbf);
    for (int i = 0; i < s->nocc; i++)
        s->eps[i] = -1.2 + 0.9 * i / s->nocc + 0.05 * (re[i] - 0.5);
    for (int a = 0; a < s->nvir; a++)
        s->eps[s->nocc + a] = 0.15 + 2.5 * a / s->nvir + 0.05 * (re[s->nocc + a] - 0.5);
    /* G in place of its uniform numbers, J = 0.1 I, then J += G G^T / naux. */
    double *gh = xcalloc(nj, 8);
    for (size_t k = 0; k < nj; k++)
        gh[k] = (rj[k] - 0.5) * sqrt(12.0);
    for (int p = 0; p < s->naux; p++)
        s->j[p + (size_t)p * s->naux] = 0.1;
    CHECK(trnsciMemcpy(d_r, gh, nj * 8, trnsciMemcpyHostToDevice), "trnsciMemcpy");
    CHECK(trnsciMemcpy(d_j, s->j, nj * 8, trnsciMemcpyHostToDevice), "trnsciMemcpy");
    trnblasHandle_t bh;
    CHECK(trnblasCreate(&bh), "trnblasCreate");
    const double alpha = 1.0 / s->naux, beta = 1.0;
    CHECK(trnblasDgemm(bh, TRNBLAS_OP_N, TRNBLAS_OP_T, s->naux, s->naux, s->naux, &alpha, d_r,
                       s->naux, d_r, s->naux, &beta, d_j, s->naux),
          "trnblasDgemm (metric)");
    CHECK(trnsciMemcpy(s->j, d_j, nj * 8, trnsciMemcpyDeviceToHost), "trnsciMemcpy");
    trnblasDestroy(bh);
    trnrandDestroyGenerator(g);
    trnsciFree(d_r);
    trnsciFree(d_j);
    free(r);
    free(gh);
    return 0;
}

static int save_inputs(const char *dir, const sys *s) {
    char path[4096], err[512];
    const size_t nbf = (size_t)s->nbf, naux = (size_t)s->naux;
    /* Lpq in C order, logical [P][mu][nu]. */
    double *t = xcalloc(nbf * nbf * naux, 8);
    for (size_t p = 0; p < naux; p++)
        for (size_t mu = 0; mu < nbf; mu++)
            for (size_t nu = 0; nu < nbf; nu++)
                t[p * nbf * nbf + mu * nbf + nu] = s->l[mu + nu * nbf + p * nbf * nbf];
    const uint64_t sl[3] = {naux, nbf, nbf}, sj[2] = {naux, naux}, sc[2] = {nbf, (uint64_t)s->nmo},
                   se[1] = {(uint64_t)s->nmo};
    int rc = 0;
    snprintf(path, sizeof(path), "%s/Lpq.npy", dir);
    rc |= npy_save(path, t, 8, 3, sl, 0, err, sizeof(err));
    snprintf(path, sizeof(path), "%s/metric.npy", dir);
    rc |= npy_save(path, s->j, 8, 2, sj, 1, err, sizeof(err));
    snprintf(path, sizeof(path), "%s/C.npy", dir);
    rc |= npy_save(path, s->c, 8, 2, sc, 1, err, sizeof(err));
    snprintf(path, sizeof(path), "%s/eps.npy", dir);
    rc |= npy_save(path, s->eps, 8, 1, se, 0, err, sizeof(err));
    free(t);
    if (rc)
        fprintf(stderr, "df_mp2: --save: %s\n", err);
    return rc ? -1 : 0;
}

/* A device copy of n float64 values in the run's precision. */
static void *upload(const double *h, size_t n, int fp32) {
    void *d = NULL;
    if (trnsciMalloc(&d, n * (fp32 ? 4 : 8)) != trnsciSuccess)
        return NULL;
    if (fp32) {
        float *f = xcalloc(n, 4);
        for (size_t k = 0; k < n; k++)
            f[k] = (float)h[k];
        const trnsciError_t e = trnsciMemcpy(d, f, n * 4, trnsciMemcpyHostToDevice);
        free(f);
        if (e != trnsciSuccess)
            return NULL;
    } else if (trnsciMemcpy(d, h, n * 8, trnsciMemcpyHostToDevice) != trnsciSuccess) {
        return NULL;
    }
    return d;
}

int main(int argc, char **argv) {
    opts o;
    if (parse(argc, argv, &o) != 0)
        return 2;
    CHECK(trnsciInit(o.addr), "trnsciInit");
    trnsciDaemonStatus st;
    CHECK(trnsciDaemonGetStatus(o.addr, &st), "trnsciDaemonGetStatus");
    const char *addr = o.addr ? o.addr : getenv("TRNSCI_ADDR");
    const int local = !addr || !*addr || !strncmp(addr, "unix:", 5);
    double t[NSTAGES] = {0}, t0_first[3] = {0, 0, 0};

    double t0 = now_s();
    sys s = {0};
    if (o.input ? load_inputs(&o, &s) : synthetic(&o, &s))
        return 1;
    if (o.save && save_inputs(o.save, &s))
        return 1;
    const size_t nbf = (size_t)s.nbf, naux = (size_t)s.naux, nocc = (size_t)s.nocc,
                 nvir = (size_t)s.nvir;
    const int fp32 = o.fp32;
    const trnsciDataType_t dt = fp32 ? TRNSCI_R_32F : TRNSCI_R_64F;
    void *d_l = upload(s.l, nbf * nbf * naux, fp32), *d_j = upload(s.j, naux * naux, fp32);
    void *d_c = upload(s.c, nbf * (size_t)s.nmo, fp32);
    double *d_eo = upload(s.eps, nocc, 0), *d_ev = upload(s.eps + nocc, nvir, 0);
    void *d_b = NULL;
    double *d_e = NULL;
    int *d_info = NULL;
    if (!d_l || !d_j || !d_c || !d_eo || !d_ev)
        return die("upload");
    CHECK(trnsciMalloc(&d_b, nocc * nvir * naux * (fp32 ? 4 : 8)), "trnsciMalloc B");
    CHECK(trnsciMalloc((void **)&d_e, 8), "trnsciMalloc");
    CHECK(trnsciMalloc((void **)&d_info, sizeof(int)), "trnsciMalloc");
    CHECK(trnsciDeviceSynchronize(), "inputs");
    t[0] = now_s() - t0;

    trnsolverDnHandle_t sh;
    trnblasHandle_t bh;
    trntensorHandle_t th;
    CHECK(trnsolverDnCreate(&sh), "trnsolverDnCreate");
    CHECK(trnblasCreate(&bh), "trnblasCreate");
    CHECK(trntensorCreate(&th), "trntensorCreate");

    /* J = L L^T. */
    t0 = now_s();
    int lwork = 0;
    void *d_work = NULL;
    if (fp32)
        CHECK(
            trnsolverDnSpotrf_bufferSize(sh, TRNBLAS_FILL_MODE_LOWER, s.naux, d_j, s.naux, &lwork),
            "potrf_bufferSize");
    else
        CHECK(
            trnsolverDnDpotrf_bufferSize(sh, TRNBLAS_FILL_MODE_LOWER, s.naux, d_j, s.naux, &lwork),
            "potrf_bufferSize");
    CHECK(trnsciMalloc(&d_work, (size_t)(lwork > 0 ? lwork : 1) * (fp32 ? 4 : 8)), "trnsciMalloc");
    if (fp32)
        CHECK(trnsolverDnSpotrf(sh, TRNBLAS_FILL_MODE_LOWER, s.naux, d_j, s.naux, d_work, lwork,
                                d_info),
              "trnsolverDnSpotrf");
    else
        CHECK(trnsolverDnDpotrf(sh, TRNBLAS_FILL_MODE_LOWER, s.naux, d_j, s.naux, d_work, lwork,
                                d_info),
              "trnsolverDnDpotrf");
    int info = 0;
    CHECK(trnsciMemcpy(&info, d_info, sizeof(int), trnsciMemcpyDeviceToHost), "potrf");
    if (info != 0) {
        fprintf(stderr, "df_mp2: the metric is not positive definite (potrf info %d)\n", info);
        return 1;
    }
    t[1] = now_s() - t0;

    /* The transformation, the fit and the energy; with --repeat R the three
     * run R times (the first on freshly uploaded buffers, "cold"; the others
     * "warm", their medians reported). */
    double warm[3][64];
    double energy = NAN;
    for (int rep = 0; rep < o.repeat; rep++) {
        /* B_raw = (Q|mu nu) transformed to (Q|ia). */
        t0 = now_s();
        const char *c_vir = (const char *)d_c + nocc * nbf * (fp32 ? 4 : 8);
        CHECK(trntensorAoToMo(th, dt, s.nbf, s.nocc, s.nvir, s.naux, d_c, s.nbf, c_vir, s.nbf, d_l,
                              d_b),
              "trntensorAoToMo");
        CHECK(trnsciDeviceSynchronize(), "trntensorAoToMo");
        t[2] = now_s() - t0;

        /* B = L^-1 B_raw: B_raw is naux x (nocc nvir), column-major, ld naux. */
        t0 = now_s();
        const int ncols = (int)(nocc * nvir);
        if (fp32) {
            const float one = 1.0f;
            CHECK(trnblasStrsm(bh, TRNBLAS_SIDE_LEFT, TRNBLAS_FILL_MODE_LOWER, TRNBLAS_OP_N,
                               TRNBLAS_DIAG_NON_UNIT, s.naux, ncols, &one, d_j, s.naux, d_b,
                               s.naux),
                  "trnblasStrsm");
        } else {
            const double one = 1.0;
            CHECK(trnblasDtrsm(bh, TRNBLAS_SIDE_LEFT, TRNBLAS_FILL_MODE_LOWER, TRNBLAS_OP_N,
                               TRNBLAS_DIAG_NON_UNIT, s.naux, ncols, &one, d_j, s.naux, d_b,
                               s.naux),
                  "trnblasDtrsm");
        }
        CHECK(trnsciDeviceSynchronize(), "trsm");
        t[3] = now_s() - t0;

        t0 = now_s();
        CHECK(trntensorMp2Energy(th, dt, s.nocc, s.nvir, s.naux, d_b, d_eo, d_ev, d_e),
              "trntensorMp2Energy");
        CHECK(trnsciMemcpy(&energy, d_e, 8, trnsciMemcpyDeviceToHost), "trntensorMp2Energy");
        t[4] = now_s() - t0;
        if (rep > 0)
            for (int k = 0; k < 3; k++)
                warm[k][rep - 1] = t[2 + k];
        if (rep == 0)
            memcpy(t0_first, t + 2, sizeof(t0_first));
    }
    memcpy(t + 2, t0_first, sizeof(t0_first));
    double warm_med[3] = {0, 0, 0};
    for (int k = 0; k < 3 && o.repeat > 1; k++)
        warm_med[k] = median(warm[k], o.repeat - 1);

    const char *transport = local ? "local (shared memory)" : "gRPC";
    if (o.json) {
        printf("{\"bench\": \"df_mp2\", \"precision\": \"%s\", \"nbf\": %d, \"nocc\": %d, "
               "\"nvir\": %d, \"naux\": %d, \"synthetic\": %s, \"energy\": %.17g, "
               "\"backend\": \"%s\", \"daemon_cores\": %u, \"transport\": \"%s\", \"stages_ms\": {",
               fp32 ? "fp32" : "fp64", s.nbf, s.nocc, s.nvir, s.naux, o.input ? "false" : "true",
               energy, st.backend, st.coreCount, transport);
        for (int i = 0; i < NSTAGES; i++)
            printf("%s\"%s\": %.3f", i ? ", " : "", stage_names[i], 1e3 * t[i]);
        printf("}");
        if (o.repeat > 1)
            printf(", \"warm_runs\": %d, \"warm_ms\": {\"aoToMo\": %.3f, \"fit\": %.3f, "
                   "\"mp2\": %.3f}",
                   o.repeat - 1, 1e3 * warm_med[0], 1e3 * warm_med[1], 1e3 * warm_med[2]);
        printf("}\n");
    } else {
        printf("DF-MP2 (%s) nbf %d nocc %d nvir %d naux %d (%s)\n", fp32 ? "FP32" : "FP64", s.nbf,
               s.nocc, s.nvir, s.naux, o.input ? o.input : "synthetic");
        printf("E(MP2 correlation) = %.12f Eh\n", energy);
        printf("ran on trnscid %s, backend %s, %u cores, over %s\n", st.daemonVersion, st.backend,
               st.coreCount, transport);
        for (int i = 0; i < NSTAGES; i++)
            printf("  %-9s %10.3f ms\n", stage_names[i], 1e3 * t[i]);
        if (o.repeat > 1)
            printf("  warm (median of %d): aoToMo %.3f ms, fit %.3f ms, mp2 %.3f ms\n",
                   o.repeat - 1, 1e3 * warm_med[0], 1e3 * warm_med[1], 1e3 * warm_med[2]);
    }
    trntensorDestroy(th);
    trnblasDestroy(bh);
    trnsolverDnDestroy(sh);
    void *ptrs[] = {d_l, d_j, d_c, d_eo, d_ev, d_b, d_e, d_info, d_work};
    for (size_t i = 0; i < sizeof(ptrs) / sizeof(ptrs[0]); i++)
        trnsciFree(ptrs[i]);
    free(s.l);
    free(s.j);
    free(s.c);
    free(s.eps);
    return 0;
}
