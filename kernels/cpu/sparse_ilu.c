/*
 * sparse_ilu.c — trnsparse's incomplete factorisations with no fill on the
 * CPU backend: IC0 (cusparse<t>csric02) and ILU0 (cusparse<t>csrilu02) in
 * place on a square CSR matrix's pattern, and their analysis.
 *
 * The structure (offsets, column indices) is client memory: one pass reads
 * every value once, checks it (offsets as sparse_common.h, indices inside
 * the matrix, columns strictly increasing in each row, as cuSPARSE
 * requires) and copies it into private scratch, which is all the
 * factorisation then uses; so nothing the client does meanwhile can send
 * it out of bounds. Values are read and written in place.
 *
 *  ILU0 (row i in order, IKJ): for each k < i stored in row i, a_ik /= u_kk,
 *   then a_ij -= a_ik u_kj for each j > k stored in both rows i and k.
 *  IC0 (lower triangle only; entries above the diagonal are not touched):
 *   l_ik = (a_ik - sum_{j<k} l_ij conj(l_kj)) / l_kk over j stored in both
 *   rows, l_ii = sqrt(a_ii - sum_{j<i} l_ij conj(l_ij)) (A ~ L L^H; conj is
 *   the identity on real types, csqrt the principal root on complex ones).
 * Complex values (C32F, C64F) use C99 complex arithmetic (cuComplex's
 * layout).
 * Sums run in storage order, in the value type. The pivot slot receives
 * the first j whose diagonal entry is missing (structural zero) or, when
 * factoring, whose pivot (u_jj, or a_jj - sum l_jk^2 for IC0) is exactly
 * zero, plus the index base; -1 if none. A missing pivot skips the updates
 * that would divide by it; a zero one divides by zero (Inf/NaN follow), as
 * cuSPARSE leaves such factors. One shard: each row needs the rows before.
 */
#include <complex.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "kernels/cpu/cpu_kernels.h"
#include "kernels/cpu/sparse_common.h"

/* The checked private structure: off (m + 1, 0-based), col (nnz), diag (m,
 * -1 when missing), pos (m, -1: the row map of the factorisation). */
typedef struct ilu_struct {
    int64_t *off, *diag, *pos;
    int32_t *col;
} ilu_struct;

static void ilu_free(ilu_struct *s) {
    free(s->off);
    free(s->diag);
    free(s->pos);
    free(s->col);
}

static int ilu_read(const trn_sp_mat *a, ilu_struct *s, trn_kmsg *msg) {
    const int64_t m = a->rows;
    s->off = malloc(((size_t)m + 1) * sizeof(int64_t));
    s->diag = malloc(((size_t)m + 1) * sizeof(int64_t));
    s->pos = malloc(((size_t)m + 1) * sizeof(int64_t));
    s->col = malloc(((size_t)a->nnz + 1) * sizeof(int32_t));
    if (!s->off || !s->diag || !s->pos || !s->col)
        return trn_sp_no_memory(msg, 0, ((size_t)m + 1) * 24 + ((size_t)a->nnz + 1) * 4,
                                "a copy of A's structure");
    const trn_sp_rows sr = trn_sp_rows_of(a, "A");
    s->off[0] = 0;
    for (int64_t i = 0; i < m; i++) {
        int64_t p0, p1;
        if (trn_sp_row_bounds(&sr, i, msg, &p0, &p1))
            return TRN_SP_BAD;
        if (p0 != s->off[i]) { /* row i starts where row i-1 ended (read once above) */
            trn_kmsg_post(msg, (uint64_t)i, 1, "A: csrRowPtrA[%lld] changed while it was read",
                          (long long)i);
            return TRN_SP_BAD;
        }
        s->off[i + 1] = p1;
        s->diag[i] = -1;
        s->pos[i] = -1;
        int64_t prev = -1;
        for (int64_t p = p0; p < p1; p++) {
            const int64_t v = trn_sp_ld(a->indices, p, 0);
            if (v < a->base || v - a->base >= m) {
                char where[48];
                snprintf(where, sizeof(where), " (row %lld)", (long long)i);
                return trn_sp_bad_index(msg, (uint64_t)i, "A", TRN_SP_CSR, TRN_SP_INDICES, p, v,
                                        a->base, m, where);
            }
            const int64_t j = v - a->base;
            if (j <= prev) {
                trn_kmsg_post(msg, (uint64_t)i, 1,
                              "A: the columns of row %lld are not strictly increasing at "
                              "csrColIndA[%lld] (sort them: trnsparseXcsrsort)",
                              (long long)i, (long long)p);
                return TRN_SP_BAD;
            }
            prev = j;
            s->col[p] = (int32_t)j;
            if (j == i)
                s->diag[i] = p;
        }
    }
    return 0;
}

/* The factorisations for element type T (SQRT its square root). */
#define ILU0_BODY(T)                                                                               \
    do {                                                                                           \
        T *v = d->a.values;                                                                        \
        for (int64_t i = 0; i < m; i++) {                                                          \
            const int64_t r0 = s->off[i], r1 = s->off[i + 1];                                      \
            for (int64_t p = r0; p < r1; p++)                                                      \
                s->pos[s->col[p]] = p;                                                             \
            for (int64_t p = r0; p < r1 && s->col[p] < i; p++) {                                   \
                const int64_t k = s->col[p], dk = s->diag[k];                                      \
                if (dk < 0)                                                                        \
                    continue;                                                                      \
                v[p] = v[p] / v[dk];                                                               \
                for (int64_t q = dk + 1; q < s->off[k + 1]; q++) {                                 \
                    const int64_t at = s->pos[s->col[q]];                                          \
                    if (at >= 0)                                                                   \
                        v[at] -= v[p] * v[q];                                                      \
                }                                                                                  \
            }                                                                                      \
            if (first < 0 && (s->diag[i] < 0 || v[s->diag[i]] == 0))                               \
                first = i;                                                                         \
            for (int64_t p = r0; p < r1; p++)                                                      \
                s->pos[s->col[p]] = -1;                                                            \
        }                                                                                          \
    } while (0)

#define IC0_BODY(T, SQRT, CJ)                                                                      \
    do {                                                                                           \
        T *v = d->a.values;                                                                        \
        for (int64_t i = 0; i < m; i++) {                                                          \
            const int64_t r0 = s->off[i], r1 = s->off[i + 1];                                      \
            for (int64_t p = r0; p < r1 && s->col[p] < i; p++)                                     \
                s->pos[s->col[p]] = p;                                                             \
            T sq = 0;                                                                              \
            for (int64_t p = r0; p < r1 && s->col[p] < i; p++) {                                   \
                const int64_t k = s->col[p], dk = s->diag[k];                                      \
                T acc = v[p];                                                                      \
                for (int64_t q = s->off[k]; q < s->off[k + 1] && s->col[q] < k; q++) {             \
                    const int64_t at = s->pos[s->col[q]];                                          \
                    if (at >= 0)                                                                   \
                        acc -= v[at] * CJ(v[q]);                                                   \
                }                                                                                  \
                v[p] = dk >= 0 ? acc / v[dk] : acc;                                                \
                sq += v[p] * CJ(v[p]);                                                             \
            }                                                                                      \
            const int64_t di = s->diag[i];                                                         \
            if (di >= 0) {                                                                         \
                const T piv = v[di] - sq;                                                          \
                if (first < 0 && piv == 0)                                                         \
                    first = i;                                                                     \
                v[di] = SQRT(piv);                                                                 \
            } else if (first < 0) {                                                                \
                first = i;                                                                         \
            }                                                                                      \
            for (int64_t p = r0; p < r1 && s->col[p] < i; p++)                                     \
                s->pos[s->col[p]] = -1;                                                            \
        }                                                                                          \
    } while (0)

static int64_t factor(const trn_spilu0_desc *d, ilu_struct *s) {
    const int64_t m = d->a.rows;
    int64_t first = -1;
    typedef float complex cfloat;
    typedef double complex cdouble;
#define NO_CJ(x) (x)
    switch (d->a.type) {
    case TRN_DTYPE_R64F:
        if (d->cholesky)
            IC0_BODY(double, sqrt, NO_CJ);
        else
            ILU0_BODY(double);
        break;
    case TRN_DTYPE_C32F:
        if (d->cholesky)
            IC0_BODY(cfloat, csqrtf, conjf);
        else
            ILU0_BODY(cfloat);
        break;
    case TRN_DTYPE_C64F:
        if (d->cholesky)
            IC0_BODY(cdouble, csqrt, conj);
        else
            ILU0_BODY(cdouble);
        break;
    default:
        if (d->cholesky)
            IC0_BODY(float, sqrtf, NO_CJ);
        else
            ILU0_BODY(float);
        break;
    }
#undef NO_CJ
    return first;
}

static trn_kstatus trn_cpu_spilu0(const trn_spilu0_desc *d, trn_kmsg *msg, int shard) {
    if (shard != 0)
        return TRN_KSTATUS_OK;
    ilu_struct s = {0};
    int rc = ilu_read(&d->a, &s, msg);
    if (rc == 0) {
        int64_t first = -1;
        if (d->analysis) {
            for (int64_t i = 0; i < d->a.rows && first < 0; i++)
                if (s.diag[i] < 0)
                    first = i;
        } else {
            first = factor(d, &s);
        }
        *d->pivot = first < 0 ? -1 : (int32_t)(first + d->a.base);
    }
    ilu_free(&s);
    return trn_sp_status(rc);
}

/* The backend's entries (cpu_kernels.h). */
TRN_CPU_ENTRY(spilu0, ((void)nshards, trn_cpu_spilu0(&op->u.spilu0, op->kmsg, shard)))
