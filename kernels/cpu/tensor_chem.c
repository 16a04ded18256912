/*
 * tensor_chem.c — trntensor's fused chemistry kernels on the CPU backend
 * (trnsci extensions): the AO -> MO transformation of density-fitting
 * integrals (trntensorAoToMo) and the DF-MP2 correlation energy
 * (trntensorMp2Energy). The layouts are the wire's (AoToMoOp,
 * Mp2EnergyOp in proto/trnsci/v1/trnsci.proto; docs/df_mp2.md).
 *
 * Reproducibility: the blocks (of P for AoToMo, of j for Mp2Energy) come
 * from the descriptor, chosen by the validator from the sizes alone; a shard
 * takes whole units (P blocks, occupied orbitals i) and every unit is
 * computed by the same library calls whatever the shard count. Mp2Energy
 * keeps one compensated partial sum per i in memory the op owns
 * (trn_mp2_partials); the shard that finishes last adds them in the order of
 * i. So the result is bitwise the same on any number of cores.
 *
 * Scratch: AoToMo nbf * p_block * nocc elements per shard, Mp2Energy nvir *
 * nvir * j_block; the validator bounds both. A shard that cannot allocate
 * its scratch fails the op with TRN_KSTATUS_NO_MEMORY; bad orbital
 * energies (the client's input) with TRN_KSTATUS_FAILED.
 */
#include <cblas.h>
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/cpu/cpu_kernels.h"
#include "kernels/cpu/routines.h"

/* C = op(A) op(B) (alpha 1, beta 0), column-major, in the data type. */
static void chem_gemm(trn_dtype t, enum CBLAS_TRANSPOSE ta, int m, int n, int k, const void *a,
                      int lda, const void *b, int ldb, void *c, int ldc) {
    if (t == TRN_DTYPE_R64F)
        TRN_LIB(cblas_dgemm)
    (CblasColMajor, ta, CblasNoTrans, m, n, k, 1.0, a, lda, b, ldb, 0.0, c, ldc);
    else TRN_LIB(cblas_sgemm)(CblasColMajor, ta, CblasNoTrans, m, n, k, 1.0f, a, lda, b, ldb, 0.0f,
                              c, ldc);
}

/* ---- AO -> MO ------------------------------------------------------------- */

trn_kstatus trn_cpu_ao_to_mo(const trn_ao_to_mo_desc *d, trn_kmsg *kmsg, int shard, int nshards) {
    const size_t es = trn_dtype_size(d->type);
    const size_t nbf = (size_t)d->nbf, nocc = (size_t)d->nocc, nvir = (size_t)d->nvir,
                 naux = (size_t)d->naux;
    if (!d->b)
        return TRN_KSTATUS_OK; /* B is empty */
    if (nbf == 0) {            /* a sum over no AO pair */
        if (shard == 0)
            memset(d->b, 0, nocc * nvir * naux * es);
        return TRN_KSTATUS_OK;
    }
    const size_t np_max = (size_t)d->p_block;
    const size_t nblocks = (naux + np_max - 1) / np_max;
    size_t lo, hi;
    trn_cpu_shard_range(nblocks, shard, nshards, &lo, &hi);
    if (lo == hi)
        return TRN_KSTATUS_OK;
    /* H[(nu + p nbf), i] = sum_mu (P|mu nu) Cocc[mu, i] for p in the block. */
    void *h = malloc(nbf * np_max * nocc * es);
    if (!h)
        return trn_kmsg_no_memory(kmsg, shard, nbf * np_max * nocc * es,
                                  "aoToMo's half-transformed block (%zu x %zu x %zu)", nbf, np_max,
                                  nocc);
    const char *lpq = d->lpq;
    char *b = d->b;
    for (size_t blk = lo; blk < hi; blk++) {
        const size_t p0 = blk * np_max;
        const size_t np = naux - p0 < np_max ? naux - p0 : np_max;
        /* Half transformation: the block's slabs as an nbf x (nbf np)
         * matrix A, H = A^T Cocc. */
        chem_gemm(d->type, CblasTrans, (int)(nbf * np), d->nocc, d->nbf, lpq + p0 * nbf * nbf * es,
                  d->nbf, d->c_occ, d->ld_c_occ, h, (int)(nbf * np));
        /* Full: for each i, X_i = H[:, i] as nbf x np (nu rows, p columns),
         * B[i, :, p0 + p] = X_i^T Cvir written with P fastest (ld naux). */
        for (size_t i = 0; i < nocc; i++)
            chem_gemm(d->type, CblasTrans, (int)np, d->nvir, d->nbf, (char *)h + i * nbf * np * es,
                      d->nbf, d->c_vir, d->ld_c_vir, b + (p0 + i * naux * nvir) * es, d->naux);
    }
    free(h);
    return TRN_KSTATUS_OK;
}

/* ---- MP2 energy -------------------------------------------------------------- */

/* Neumaier's compensated addition: (*s + *c) carries x exactly up to the
 * rounding of the final s + c (Higham, Accuracy and Stability, 4.3). */
static inline void neumaier_add(double *s, double *c, double x) {
    const double t = *s + x;
    if (fabs(*s) >= fabs(x))
        *c += (*s - t) + x;
    else
        *c += (x - t) + *s;
    *s = t;
}

/* The first occupied orbital of shard `shard`: the work of i is i + 1
 * pairs (i, j <= i), so shard s starts at the first i whose preceding work
 * i (i + 1) / 2 reaches s / nshards of the total. A function of the sizes
 * and the shard count only. */
static size_t mp2_first_i(size_t nocc, int shard, int nshards) {
    const double total = (double)nocc * ((double)nocc + 1.0) / 2.0;
    const double target = total * (double)shard / (double)nshards;
    size_t lo = 0, hi = nocc;
    while (lo < hi) {
        const size_t mid = lo + (hi - lo) / 2;
        if ((double)mid * ((double)mid + 1.0) / 2.0 >= target)
            hi = mid;
        else
            lo = mid + 1;
    }
    return shard >= nshards ? nocc : lo;
}

/* Copies the orbital energies (client memory, which may change while the op
 * runs) and checks them: finite, and every e_a - e_i > 0, so that every
 * denominator (e_i - e_a) + (e_j - e_b) is negative (a difference of two
 * distinct doubles is never rounded to 0). */
static int mp2_load_eps(const trn_mp2_energy_desc *d, double *eo, double *ev, trn_kmsg *kmsg) {
    memcpy(eo, d->eps_occ, (size_t)d->nocc * sizeof(double));
    memcpy(ev, d->eps_vir, (size_t)d->nvir * sizeof(double));
    int io = 0, iv = 0;
    for (int i = 0; i < d->nocc; i++) {
        if (!isfinite(eo[i])) {
            trn_kmsg_post(kmsg, 0, 1, "mp2Energy: epsOcc[%d] is not finite", i);
            return -1;
        }
        io = eo[i] > eo[io] ? i : io;
    }
    for (int a = 0; a < d->nvir; a++) {
        if (!isfinite(ev[a])) {
            trn_kmsg_post(kmsg, 0, 1, "mp2Energy: epsVir[%d] is not finite", a);
            return -1;
        }
        iv = ev[a] < ev[iv] ? a : iv;
    }
    if (!(ev[iv] > eo[io])) {
        trn_kmsg_post(kmsg, 0, 1,
                      "mp2Energy: epsVir[%d] = %.17g must be above epsOcc[%d] = %.17g (every "
                      "e_a - e_i > 0: no zero or positive denominator)",
                      iv, ev[iv], io, eo[io]);
        return -1;
    }
    return 0;
}

/* Adds w * sum_ab V[a,b] (2 V[a,b] - V[b,a]) / (dia[a] + djb[b]) to (*s, *c);
 * V is nvir x nvir column-major, V[a,b] = (ia|jb). */
#define MP2_PAIR(T)                                                                                \
    static void mp2_pair_##T(const T *v, int nvir, const double *dia, const double *djb, double w, \
                             double *s, double *c) {                                               \
        for (int b = 0; b < nvir; b++)                                                             \
            for (int a = 0; a < nvir; a++) {                                                       \
                const double iajb = (double)v[a + (size_t)b * (size_t)nvir];                       \
                const double ibja = (double)v[b + (size_t)a * (size_t)nvir];                       \
                neumaier_add(s, c, w *iajb *(2.0 * iajb - ibja) / (dia[a] + djb[b]));              \
            }                                                                                      \
    }
MP2_PAIR(float)
MP2_PAIR(double)

/* The shard that finishes last: E = sum_i (s_i + c_i), compensated, in the
 * order of i; then the counter is reset for the next run of the op. */
static void mp2_finish(const trn_mp2_energy_desc *d, int nshards) {
    trn_mp2_partials *p = d->partials;
    const int done = atomic_fetch_add_explicit(&p->shards_done, 1, memory_order_acq_rel) + 1;
    if (done < nshards)
        return;
    double s = 0.0, c = 0.0;
    for (int i = 0; i < d->nocc; i++) {
        neumaier_add(&s, &c, p->pair[2 * i]);
        c += p->pair[2 * i + 1];
    }
    *d->energy = s + c;
    atomic_store_explicit(&p->shards_done, 0, memory_order_relaxed);
}

trn_kstatus trn_cpu_mp2_energy(const trn_mp2_energy_desc *d, trn_kmsg *kmsg, int shard,
                               int nshards) {
    if (!d->b) { /* nothing to sum */
        if (shard == 0)
            *d->energy = 0.0;
        return TRN_KSTATUS_OK;
    }
    const size_t es = trn_dtype_size(d->type);
    const size_t nocc = (size_t)d->nocc, nvir = (size_t)d->nvir, naux = (size_t)d->naux;
    const size_t jb = (size_t)d->j_block;
    const size_t i_lo = mp2_first_i(nocc, shard, nshards);
    const size_t i_hi = mp2_first_i(nocc, shard + 1, nshards);
    trn_kstatus st = TRN_KSTATUS_OK;
    double *eo = malloc(nocc * sizeof(double));
    double *ev = malloc(nvir * sizeof(double));
    double *dia = malloc(nvir * sizeof(double));
    double *djb = malloc(nvir * jb * sizeof(double));
    void *v = malloc(nvir * nvir * jb * es);
    if (!eo || !ev || !dia || !djb || !v) {
        st = trn_kmsg_no_memory(
            kmsg, shard, (nocc + 2 * nvir + nvir * jb) * sizeof(double) + nvir * nvir * jb * es,
            "mp2Energy's integral block (%zu x %zu x %zu)", nvir, nvir, jb);
        goto out;
    }
    if (mp2_load_eps(d, eo, ev, kmsg) != 0) {
        st = TRN_KSTATUS_FAILED;
        goto out;
    }
    const char *b = d->b;
    const size_t slab = nvir * naux * es; /* B[i, :, :] */
    for (size_t i = i_lo; i < i_hi; i++) {
        double s = 0.0, c = 0.0;
        for (size_t a = 0; a < nvir; a++)
            dia[a] = eo[i] - ev[a];
        for (size_t j0 = 0; j0 <= i; j0 += jb) {
            const size_t jn = i + 1 - j0 < jb ? i + 1 - j0 : jb;
            /* V[a, (j - j0) nvir + b] = sum_P B[i,a,P] B[j,b,P]. */
            chem_gemm(d->type, CblasTrans, d->nvir, (int)(jn * nvir), d->naux, b + i * slab,
                      d->naux, b + j0 * slab, d->naux, v, d->nvir);
            for (size_t jj = 0; jj < jn; jj++) {
                const size_t j = j0 + jj;
                double *dj = djb + jj * nvir;
                for (size_t bb = 0; bb < nvir; bb++)
                    dj[bb] = eo[j] - ev[bb];
                /* e_ji = e_ij: the pairs j < i count twice. */
                const double w = j == i ? 1.0 : 2.0;
                if (d->type == TRN_DTYPE_R64F)
                    mp2_pair_double((const double *)v + jj * nvir * nvir, d->nvir, dia, dj, w, &s,
                                    &c);
                else
                    mp2_pair_float((const float *)v + jj * nvir * nvir, d->nvir, dia, dj, w, &s,
                                   &c);
            }
        }
        d->partials->pair[2 * i] = s;
        d->partials->pair[2 * i + 1] = c;
    }
out:
    free(eo);
    free(ev);
    free(dia);
    free(djb);
    free(v);
    mp2_finish(d, nshards);
    return st;
}

/* The backend's entries (cpu_kernels.h). */
TRN_CPU_ENTRY(ao_to_mo, trn_cpu_ao_to_mo(&op->u.ao_to_mo, op->kmsg, shard, nshards))
TRN_CPU_ENTRY(mp2_energy, trn_cpu_mp2_energy(&op->u.mp2_energy, op->kmsg, shard, nshards))
