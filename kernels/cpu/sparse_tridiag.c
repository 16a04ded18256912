/*
 * sparse_tridiag.c — trnsparse's banded solves on the CPU backend:
 * tridiagonal (cusparse<t>gtsv2, gtsv2_nopivot, gtsv2StridedBatch,
 * gtsvInterleavedBatch) and pentadiagonal (gpsvInterleavedBatch) systems,
 * S/D/C/Z, solved in place in x.
 *
 * One algorithm serves all: Gaussian elimination on a band with kl
 * subdiagonals and ku = kl superdiagonals, by rows, with or without
 * partial pivoting (the row of largest |re| + |im| among the kl + 1
 * candidates, as LAPACK's gbtrf; ties keep the current row). Pivoting
 * fills at most kl more superdiagonals, so each row of the working copy
 * holds columns i - kl .. i + ku + kl (W = 2 kl + ku + 1 entries). Without
 * pivoting and kl = 1 this is the Thomas algorithm. The elimination is
 * applied to the right-hand sides as it goes, then back substitution.
 *
 * Invariants: the diagonals are read once into a per-shard scratch (never
 * written: cuSPARSE's gtsv2 family takes them const, and the interleaved
 * batches' outputs are x alone here); the out-of-band entries are never
 * read. Shards take whole systems (gtsv2's one system: whole right-hand
 * sides, each shard repeating the elimination), and every column's
 * arithmetic is the same sequence whatever the split, so results are
 * bitwise independent of the shard count. A zero pivot divides by zero
 * (Inf/NaN in x, no error), as cuSPARSE does.
 */
#include <complex.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/cpu/cpu_kernels.h"

#define ABS1_F(z) fabsf(z)
#define ABS1_D(z) fabs(z)
#define ABS1_C(z) (fabsf(crealf(z)) + fabsf(cimagf(z)))
#define ABS1_Z(z) (fabs(creal(z)) + fabs(cimag(z)))

/* Solves systems [k0, k1) (columns [c0, c1) of gtsv2's one system) with
 * scratch a (m * W elements of T, zeroed per system). */
#define BANDED_BODY(T, ABS1)                                                                       \
    do {                                                                                           \
        const int64_t m = d->m, kl = d->penta ? 2 : 1, ku = kl, W = 2 * kl + ku + 1;               \
        const int64_t es = d->elem_stride, ss = d->sys_stride, ldb = d->ldb;                       \
        const T *ds = d->ds, *dl = d->dl, *dd = d->d, *du = d->du, *dw = d->dw;                    \
        T *x = d->x;                                                                               \
        T *a = scratch;                                                                            \
        for (int64_t k = k0; k < k1; k++) {                                                        \
            const int64_t base = k * ss;                                                           \
            memset(a, 0, (size_t)(m * W) * sizeof(T));                                             \
            for (int64_t i = 0; i < m; i++) {                                                      \
                T *row = a + i * W + kl; /* row[j - i]: column j */                                \
                const int64_t e = base + i * es;                                                   \
                if (d->penta && i >= 2)                                                            \
                    row[-2] = ds[e];                                                               \
                if (i >= 1)                                                                        \
                    row[-1] = dl[e];                                                               \
                row[0] = dd[e];                                                                    \
                if (i + 1 < m)                                                                     \
                    row[1] = du[e];                                                                \
                if (d->penta && i + 2 < m)                                                         \
                    row[2] = dw[e];                                                                \
            }                                                                                      \
            for (int64_t p = 0; p < m; p++) {                                                      \
                const int64_t last = p + kl < m - 1 ? p + kl : m - 1;                              \
                const int64_t right = p + kl + ku < m - 1 ? p + kl + ku : m - 1;                   \
                if (d->pivot) {                                                                    \
                    int64_t best = p;                                                              \
                    for (int64_t i = p + 1; i <= last; i++)                                        \
                        if (ABS1(a[i * W + kl + p - i]) > ABS1(a[best * W + kl + p - best]))       \
                            best = i;                                                              \
                    if (best != p) {                                                               \
                        for (int64_t j = p; j <= right; j++) {                                     \
                            T *u = &a[p * W + kl + j - p], *v = &a[best * W + kl + j - best];      \
                            const T t = *u;                                                        \
                            *u = *v;                                                               \
                            *v = t;                                                                \
                        }                                                                          \
                        for (int64_t c = c0; c < c1; c++) {                                        \
                            T *u = &x[base + p * es + c * ldb],                                    \
                              *v = &x[base + best * es + c * ldb];                                 \
                            const T t = *u;                                                        \
                            *u = *v;                                                               \
                            *v = t;                                                                \
                        }                                                                          \
                    }                                                                              \
                }                                                                                  \
                const T piv = a[p * W + kl];                                                       \
                for (int64_t i = p + 1; i <= last; i++) {                                          \
                    const T l = a[i * W + kl + p - i] / piv;                                       \
                    for (int64_t j = p + 1; j <= right; j++)                                       \
                        a[i * W + kl + j - i] -= l * a[p * W + kl + j - p];                        \
                    for (int64_t c = c0; c < c1; c++)                                              \
                        x[base + i * es + c * ldb] -= l * x[base + p * es + c * ldb];              \
                }                                                                                  \
            }                                                                                      \
            for (int64_t c = c0; c < c1; c++) {                                                    \
                for (int64_t p = m - 1; p >= 0; p--) {                                             \
                    const int64_t right = p + kl + ku < m - 1 ? p + kl + ku : m - 1;               \
                    T s = x[base + p * es + c * ldb];                                              \
                    for (int64_t j = p + 1; j <= right; j++)                                       \
                        s -= a[p * W + kl + j - p] * x[base + j * es + c * ldb];                   \
                    x[base + p * es + c * ldb] = s / a[p * W + kl];                                \
                }                                                                                  \
            }                                                                                      \
        }                                                                                          \
    } while (0)

static void banded_f(const trn_banded_desc *d, void *scratch, int64_t k0, int64_t k1, int64_t c0,
                     int64_t c1) {
    BANDED_BODY(float, ABS1_F);
}

static void banded_d(const trn_banded_desc *d, void *scratch, int64_t k0, int64_t k1, int64_t c0,
                     int64_t c1) {
    BANDED_BODY(double, ABS1_D);
}

static void banded_c(const trn_banded_desc *d, void *scratch, int64_t k0, int64_t k1, int64_t c0,
                     int64_t c1) {
    BANDED_BODY(float _Complex, ABS1_C);
}

static void banded_z(const trn_banded_desc *d, void *scratch, int64_t k0, int64_t k1, int64_t c0,
                     int64_t c1) {
    BANDED_BODY(double _Complex, ABS1_Z);
}

static trn_kstatus trn_cpu_banded(const trn_banded_desc *d, int shard, int nshards) {
    if (d->batch == 0 || d->m == 0 || d->nrhs == 0)
        return TRN_KSTATUS_OK;
    /* Shards take systems, or gtsv2's right-hand sides (ops/models). */
    const int by_cols = d->batch == 1;
    size_t lo, hi;
    trn_cpu_shard_range((size_t)(by_cols ? d->nrhs : d->batch), shard, nshards, &lo, &hi);
    if (lo == hi)
        return TRN_KSTATUS_OK;
    const int64_t k0 = by_cols ? 0 : (int64_t)lo, k1 = by_cols ? 1 : (int64_t)hi;
    const int64_t c0 = by_cols ? (int64_t)lo : 0, c1 = by_cols ? (int64_t)hi : 1;
    const size_t w = d->penta ? 7 : 4;
    void *scratch = calloc((size_t)d->m * w, trn_dtype_size(d->type));
    if (!scratch)
        return TRN_KSTATUS_NO_MEMORY;
    switch (d->type) {
    case TRN_DTYPE_R32F: banded_f(d, scratch, k0, k1, c0, c1); break;
    case TRN_DTYPE_R64F: banded_d(d, scratch, k0, k1, c0, c1); break;
    case TRN_DTYPE_C32F: banded_c(d, scratch, k0, k1, c0, c1); break;
    case TRN_DTYPE_C64F:
        banded_z(d, scratch, k0, k1, c0, c1);
        break;
    TRN_DTYPE_GEMM_ONLY_CASES:
        break;
    }
    free(scratch);
    return TRN_KSTATUS_OK;
}

/* The backend's entries (cpu_kernels.h). */
TRN_CPU_ENTRY(spbanded, trn_cpu_banded(&op->u.banded, shard, nshards))
