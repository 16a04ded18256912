/*
 * inputs.c — the DF-MP2 example's system: read from .npy files (--input),
 * or drawn with trnrand and made with trnblas (synthetic), written back as
 * .npy files (--save), and uploaded to the daemon.
 *
 * Input files: Lpq.npy (naux, nbf, nbf) = (P|mu nu); metric.npy (naux,
 * naux) = (P|Q); C.npy (nbf, nmo) MO coefficients; eps.npy (nmo) orbital
 * energies, ascending; float64 or float32, C or Fortran order (tools/npy.c
 * checks them).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "df_mp2.h"
#include "tools/npy.h"
#include "trnsci/trnblas.h"
#include "trnsci/trnrand.h"

void df_sys_free(df_sys *s) {
    free(s->l);
    free(s->j);
    free(s->c);
    free(s->eps);
    s->l = s->j = s->c = s->eps = NULL;
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

int df_load_inputs(const df_opts *o, df_sys *s) {
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
    s->l = df_xcalloc((size_t)nbf * nbf * naux, 8);
    s->j = df_xcalloc((size_t)naux * naux, 8);
    s->c = df_xcalloc((size_t)nbf * (size_t)s->nmo, 8);
    s->eps = df_xcalloc((size_t)s->nmo, 8);
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
 * on the daemon: J = G G^T / naux + 0.1 I, G with unit-variance entries.
 * With --decay D the AO functions sit on a chain and (P|mu nu) falls off as
 * exp(-|mu - nu| / D), as integrals of distant functions do: what AO-pair
 * screening exploits. */
int df_synthetic(const df_opts *o, df_sys *s) {
    s->nbf = o->nbf;
    s->nocc = o->nocc;
    s->naux = o->naux;
    s->nmo = o->nmo;
    s->nvir = o->nmo - o->nocc;
    const size_t nl = (size_t)s->nbf * s->nbf * s->naux, nj = (size_t)s->naux * s->naux,
                 nc = (size_t)s->nbf * s->nmo, ne = (size_t)s->nmo;
    double *d_r, *d_j;
    DF_CHECK(trnsciMalloc((void **)&d_r, (nl + nj + nc + ne) * 8), "trnsciMalloc");
    DF_CHECK(trnsciMalloc((void **)&d_j, nj * 8), "trnsciMalloc");
    trnrandGenerator_t g;
    DF_CHECK(trnrandCreateGenerator(&g, TRNRAND_RNG_PSEUDO_PHILOX4_32_10),
             "trnrandCreateGenerator");
    DF_CHECK(trnrandSetPseudoRandomGeneratorSeed(g, o->seed),
             "trnrandSetPseudoRandomGeneratorSeed");
    DF_CHECK(trnrandGenerateUniformDouble(g, d_r, nl + nj + nc + ne),
             "trnrandGenerateUniformDouble");
    double *r = df_xcalloc(nl + nj + nc + ne, 8);
    DF_CHECK(trnsciMemcpy(r, d_r, (nl + nj + nc + ne) * 8, trnsciMemcpyDeviceToHost),
             "trnsciMemcpy");
    const double *rl = r, *rj = r + nl, *rc = rj + nj, *re = rc + nc;
    s->l = df_xcalloc(nl, 8);
    s->j = df_xcalloc(nj, 8);
    s->c = df_xcalloc(nc, 8);
    s->eps = df_xcalloc(ne, 8);
    const size_t nbf = (size_t)s->nbf;
    const double scale_l = 0.5 / (double)nbf;
    for (size_t p = 0; p < (size_t)s->naux; p++)
        for (size_t nu = 0; nu < nbf; nu++)
            for (size_t mu = 0; mu <= nu; mu++) {
                const double v =
                    (rl[p * nbf * nbf + mu + nu * nbf] + rl[p * nbf * nbf + nu + mu * nbf] - 1.0) *
                    scale_l;
                const double w = o->decay > 0 ? exp(-(double)(nu - mu) / o->decay) : 1.0;
                s->l[p * nbf * nbf + mu + nu * nbf] = s->l[p * nbf * nbf + nu + mu * nbf] = v * w;
            }
    for (size_t k = 0; k < nc; k++)
        s->c[k] = (rc[k] - 0.5) * sqrt(12.0 / (double)nbf);
    for (int i = 0; i < s->nocc; i++)
        s->eps[i] = -1.2 + 0.9 * i / s->nocc + 0.05 * (re[i] - 0.5);
    for (int a = 0; a < s->nvir; a++)
        s->eps[s->nocc + a] = 0.15 + 2.5 * a / s->nvir + 0.05 * (re[s->nocc + a] - 0.5);
    /* G in place of its uniform numbers, J = 0.1 I, then J += G G^T / naux. */
    double *gh = df_xcalloc(nj, 8);
    for (size_t k = 0; k < nj; k++)
        gh[k] = (rj[k] - 0.5) * sqrt(12.0);
    for (int p = 0; p < s->naux; p++)
        s->j[p + (size_t)p * s->naux] = 0.1;
    DF_CHECK(trnsciMemcpy(d_r, gh, nj * 8, trnsciMemcpyHostToDevice), "trnsciMemcpy");
    DF_CHECK(trnsciMemcpy(d_j, s->j, nj * 8, trnsciMemcpyHostToDevice), "trnsciMemcpy");
    trnblasHandle_t bh;
    DF_CHECK(trnblasCreate(&bh), "trnblasCreate");
    const double alpha = 1.0 / s->naux, beta = 1.0;
    DF_CHECK(trnblasDgemm(bh, TRNBLAS_OP_N, TRNBLAS_OP_T, s->naux, s->naux, s->naux, &alpha, d_r,
                          s->naux, d_r, s->naux, &beta, d_j, s->naux),
             "trnblasDgemm (metric)");
    DF_CHECK(trnsciMemcpy(s->j, d_j, nj * 8, trnsciMemcpyDeviceToHost), "trnsciMemcpy");
    trnblasDestroy(bh);
    trnrandDestroyGenerator(g);
    trnsciFree(d_r);
    trnsciFree(d_j);
    free(r);
    free(gh);
    return 0;
}

int df_save_inputs(const char *dir, const df_sys *s) {
    char path[4096], err[512];
    const size_t nbf = (size_t)s->nbf, naux = (size_t)s->naux;
    /* Lpq in C order, logical [P][mu][nu]. */
    double *t = df_xcalloc(nbf * nbf * naux, 8);
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

void *df_upload(const double *h, size_t n, int fp32) {
    void *d = NULL;
    if (trnsciMalloc(&d, n * (fp32 ? 4 : 8)) != trnsciSuccess)
        return NULL;
    if (fp32) {
        float *f = df_xcalloc(n, 4);
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
