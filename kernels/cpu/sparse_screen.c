/*
 * sparse_screen.c — Schwarz bounds on the CPU backend (a trnsci extension
 * for screened products): bounds[I] = sqrt(max |diag[i]|) over the entries
 * i of block I. For a positive semi-definite A, |A_ij| <= sqrt(A_ii A_jj)
 * (Cauchy-Schwarz), so bounds[I] bounds[J] bounds every entry of block
 * (I, J): what trnsparseSpMMScreened compares with its threshold (the
 * screening itself is in sparse_spmm_t.h). One shard: a pass over a vector.
 */
#include <math.h>
#include <stdint.h>

#include "kernels/cpu/cpu_kernels.h"

trn_kstatus trn_cpu_schwarz(const trn_schwarz_desc *d, int shard, int nshards) {
    (void)nshards;
    if (shard != 0)
        return TRN_KSTATUS_OK;
    const int64_t n = d->diag.rows, bs = d->block_size;
    for (int64_t I = 0; I < d->bounds.rows; I++) {
        double m = 0.0;
        const int64_t end = (I + 1) * bs < n ? (I + 1) * bs : n;
        for (int64_t i = I * bs; i < end; i++) {
            const double v = d->diag.type == TRN_DTYPE_R64F ? ((const double *)d->diag.values)[i]
                                                            : ((const float *)d->diag.values)[i];
            m = fabs(v) > m || isnan(v) ? fabs(v) : m;
        }
        if (d->bounds.type == TRN_DTYPE_R64F)
            ((double *)d->bounds.values)[I] = sqrt(m);
        else
            ((float *)d->bounds.values)[I] = (float)sqrt(m);
    }
    return TRN_KSTATUS_OK;
}

/* The backend's entries (cpu_kernels.h). */
TRN_CPU_ENTRY(schwarz, trn_cpu_schwarz(&op->u.schwarz, shard, nshards))
