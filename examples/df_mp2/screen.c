/*
 * screen.c — the AO -> MO transformation of the DF-MP2 example over the AO
 * pairs that matter (--screen THRESHOLD), through trnsparse and trnblas.
 *
 * The bound. The Coulomb inner product gives the Schwarz inequality
 * |(P|mu nu)| <= sqrt((P|P)) sqrt((mu nu|mu nu)). The inputs hold (P|Q) but
 * not (mu nu|mu nu), so the pair factor is taken from the integrals
 * themselves: q_mu,nu = max_P |(P|mu nu)| / sqrt((P|P)), which makes
 * |(P|mu nu)| <= sqrt((P|P)) q_mu,nu hold exactly, in the same product form.
 * sqrt((P|P)) comes from trnsparseSchwarzBounds on the metric's diagonal.
 * A pair (mu, nu) is dropped when
 *     q_mu,nu * max_P sqrt((P|P)) * cmax_mu * cmax_nu < threshold,
 * cmax_mu = max_k |C[mu,k]| over all orbitals, so that every B_raw[i,a,P]
 * changes by at most (pairs dropped) * threshold (reported as the bound).
 *
 * The work. (P|mu nu), stored as L[mu + nu nbf + P nbf^2], is a row-major
 * matrix R with rows (P, nu) and columns mu. Over the kept pairs it is a
 * CSR matrix (built here, on the host, from the input), and
 *     H = R Cocc                      trnsparseSpMM, (naux nbf) x nocc
 *     B_raw[i,:,:] = H_i^T Cvir       trnblas?gemmStridedBatched over i
 * where H_i, column i of H, is an nbf x naux column-major matrix (nu, P):
 * the output lands with P fastest, the layout trntensorAoToMo writes.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "df_mp2.h"
#include "trnsci/trnblas.h"
#include "trnsci/trnsparse.h"

/* sqrt of the metric's diagonal through trnsparse's Schwarz bounds (block
 * size 1: bounds[P] = sqrt(|J_PP|)). */
static int aux_bounds(const df_sys *s, double *bound) {
    const size_t naux = (size_t)s->naux;
    double *diag = df_xcalloc(naux, 8);
    for (size_t p = 0; p < naux; p++)
        diag[p] = s->j[p + p * naux];
    double *d_diag = df_upload(diag, naux, 0), *d_bound = NULL;
    free(diag);
    if (!d_diag || trnsciMalloc((void **)&d_bound, naux * 8) != trnsciSuccess)
        return df_die("upload (Schwarz bounds)");
    trnsparseHandle_t h;
    trnsparseConstDnVecDescr_t vd;
    trnsparseDnVecDescr_t vb;
    DF_CHECK(trnsparseCreate(&h), "trnsparseCreate");
    DF_CHECK(trnsparseCreateConstDnVec(&vd, s->naux, d_diag, TRNSCI_R_64F), "DnVec");
    DF_CHECK(trnsparseCreateDnVec(&vb, s->naux, d_bound, TRNSCI_R_64F), "DnVec");
    DF_CHECK(trnsparseSchwarzBounds(h, vd, 1, vb), "trnsparseSchwarzBounds");
    DF_CHECK(trnsciMemcpy(bound, d_bound, naux * 8, trnsciMemcpyDeviceToHost), "bounds");
    trnsparseDestroyDnVec(vd);
    trnsparseDestroyDnVec(vb);
    trnsparseDestroy(h);
    trnsciFree(d_diag);
    trnsciFree(d_bound);
    return 0;
}

/* keep[mu + nu nbf] for the pairs the threshold keeps (symmetric). */
static unsigned char *pair_mask(const df_sys *s, const double *pb, double threshold,
                                df_screen_stats *st) {
    const size_t nbf = (size_t)s->nbf, naux = (size_t)s->naux, nmo = (size_t)s->nmo;
    double pmax = 0.0;
    for (size_t p = 0; p < naux; p++)
        pmax = pb[p] > pmax ? pb[p] : pmax;
    double *cmax = df_xcalloc(nbf, 8);
    for (size_t k = 0; k < nmo; k++)
        for (size_t mu = 0; mu < nbf; mu++)
            cmax[mu] = fmax(cmax[mu], fabs(s->c[mu + k * nbf]));
    /* q over the pairs, one pass over the integrals in memory order. */
    double *q = df_xcalloc(nbf * nbf, 8);
    for (size_t p = 0; p < naux; p++) {
        if (!(pb[p] > 0))
            continue;
        const double *lp = s->l + p * nbf * nbf;
        for (size_t k = 0; k < nbf * nbf; k++)
            q[k] = fmax(q[k], fabs(lp[k]) / pb[p]);
    }
    unsigned char *keep = df_xcalloc(nbf * nbf, 1);
    st->pairs = (int64_t)(nbf * nbf);
    st->pairs_kept = 0;
    for (size_t nu = 0; nu < nbf; nu++)
        for (size_t mu = 0; mu < nbf; mu++) {
            const size_t k = mu + nu * nbf;
            keep[k] = q[k] * pmax * cmax[mu] * cmax[nu] >= threshold;
            st->pairs_kept += keep[k];
        }
    free(q);
    st->bound = (double)(st->pairs - st->pairs_kept) * threshold;
    free(cmax);
    return keep;
}

/* The CSR matrix R (rows P nbf + nu, columns mu) over the kept pairs, on the
 * daemon: 32-bit offsets and indices (the example's sizes keep nnz below
 * 2^31, checked), values in the run's precision. */
static int upload_csr(const df_sys *s, const unsigned char *keep, int fp32, int64_t *nnz_out,
                      void **d_off, void **d_col, void **d_val) {
    const size_t nbf = (size_t)s->nbf, naux = (size_t)s->naux, rows = naux * nbf;
    size_t per_p = 0;
    for (size_t k = 0; k < nbf * nbf; k++)
        per_p += keep[k];
    const size_t nnz = per_p * naux;
    if (nnz > (size_t)INT32_MAX) {
        fprintf(stderr, "df_mp2: --screen keeps %zu entries, more than 32-bit indices hold\n", nnz);
        return 1;
    }
    int32_t *off = df_xcalloc(rows + 1, 4), *col = df_xcalloc(nnz, 4);
    double *val = df_xcalloc(nnz, 8);
    size_t k = 0;
    for (size_t p = 0; p < naux; p++)
        for (size_t nu = 0; nu < nbf; nu++) {
            off[p * nbf + nu] = (int32_t)k;
            for (size_t mu = 0; mu < nbf; mu++)
                if (keep[mu + nu * nbf]) {
                    col[k] = (int32_t)mu;
                    val[k++] = s->l[mu + nu * nbf + p * nbf * nbf];
                }
        }
    off[rows] = (int32_t)k;
    *nnz_out = (int64_t)nnz;
    int rc = 0;
    if (trnsciMalloc(d_off, (rows + 1) * 4) != trnsciSuccess ||
        trnsciMalloc(d_col, (nnz ? nnz : 1) * 4) != trnsciSuccess ||
        trnsciMemcpy(*d_off, off, (rows + 1) * 4, trnsciMemcpyHostToDevice) != trnsciSuccess ||
        (nnz && trnsciMemcpy(*d_col, col, nnz * 4, trnsciMemcpyHostToDevice) != trnsciSuccess) ||
        !(*d_val = df_upload(val, nnz ? nnz : 1, fp32)))
        rc = df_die("upload (screened integrals)");
    free(off);
    free(col);
    free(val);
    return rc;
}

int df_screened_ao_to_mo(const df_sys *s, double threshold, int fp32, const void *d_c, void *d_b,
                         df_screen_stats *st) {
    const size_t nbf = (size_t)s->nbf, naux = (size_t)s->naux, nocc = (size_t)s->nocc,
                 nvir = (size_t)s->nvir, es = fp32 ? 4 : 8;
    const trnsciDataType dt = fp32 ? TRNSCI_R_32F : TRNSCI_R_64F;
    double *pb = df_xcalloc(naux, 8);
    if (aux_bounds(s, pb)) {
        free(pb);
        return 1;
    }
    unsigned char *keep = pair_mask(s, pb, threshold, st);
    free(pb);
    int64_t nnz = 0;
    void *d_off = NULL, *d_col = NULL, *d_val = NULL, *d_h = NULL;
    const int rc_csr = upload_csr(s, keep, fp32, &nnz, &d_off, &d_col, &d_val);
    free(keep);
    if (rc_csr)
        return 1;
    DF_CHECK(trnsciMalloc(&d_h, naux * nbf * nocc * es), "trnsciMalloc H");

    /* H = R Cocc. */
    trnsparseHandle_t sp;
    trnsparseConstSpMatDescr_t ra;
    trnsparseConstDnMatDescr_t cocc;
    trnsparseDnMatDescr_t hm;
    DF_CHECK(trnsparseCreate(&sp), "trnsparseCreate");
    DF_CHECK(trnsparseCreateConstCsr(&ra, (int64_t)(naux * nbf), s->nbf, nnz, d_off, d_col, d_val,
                                     TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_32I,
                                     TRNSPARSE_INDEX_BASE_ZERO, dt),
             "trnsparseCreateConstCsr");
    DF_CHECK(
        trnsparseCreateConstDnMat(&cocc, s->nbf, s->nocc, s->nbf, d_c, dt, TRNSPARSE_ORDER_COL),
        "DnMat Cocc");
    DF_CHECK(trnsparseCreateDnMat(&hm, (int64_t)(naux * nbf), s->nocc, (int64_t)(naux * nbf), d_h,
                                  dt, TRNSPARSE_ORDER_COL),
             "DnMat H");
    const float one_f = 1.0f, zero_f = 0.0f;
    const double one_d = 1.0, zero_d = 0.0;
    const void *one = fp32 ? (const void *)&one_f : (const void *)&one_d;
    const void *zero = fp32 ? (const void *)&zero_f : (const void *)&zero_d;
    DF_CHECK(trnsparseSpMM(sp, TRNSPARSE_OPERATION_NON_TRANSPOSE, TRNSPARSE_OPERATION_NON_TRANSPOSE,
                           one, ra, cocc, zero, hm, dt, TRNSPARSE_SPMM_ALG_DEFAULT, NULL),
             "trnsparseSpMM");

    /* B_raw[i] = H_i^T Cvir for every occupied i. */
    trnblasHandle_t bh;
    DF_CHECK(trnblasCreate(&bh), "trnblasCreate");
    const char *c_vir = (const char *)d_c + nocc * nbf * es;
    const long long stride_h = (long long)(naux * nbf), stride_b = (long long)(naux * nvir);
    if (fp32)
        DF_CHECK(trnblasSgemmStridedBatched(bh, TRNBLAS_OP_T, TRNBLAS_OP_N, s->naux, s->nvir,
                                            s->nbf, &one_f, d_h, s->nbf, stride_h,
                                            (const float *)c_vir, s->nbf, 0, &zero_f, d_b, s->naux,
                                            stride_b, s->nocc),
                 "trnblasSgemmStridedBatched");
    else
        DF_CHECK(trnblasDgemmStridedBatched(bh, TRNBLAS_OP_T, TRNBLAS_OP_N, s->naux, s->nvir,
                                            s->nbf, &one_d, d_h, s->nbf, stride_h,
                                            (const double *)c_vir, s->nbf, 0, &zero_d, d_b, s->naux,
                                            stride_b, s->nocc),
                 "trnblasDgemmStridedBatched");
    DF_CHECK(trnsciDeviceSynchronize(), "screened transformation");
    trnblasDestroy(bh);
    trnsparseDestroySpMat(ra);
    trnsparseDestroyDnMat(cocc);
    trnsparseDestroyDnMat(hm);
    trnsparseDestroy(sp);
    void *ptrs[] = {d_off, d_col, d_val, d_h};
    for (size_t i = 0; i < sizeof(ptrs) / sizeof(ptrs[0]); i++)
        trnsciFree(ptrs[i]);
    return 0;
}
