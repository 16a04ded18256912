/*
 * solver_csr.c — the sparse operator of trnsolver's Krylov solvers: a
 * private, checked CSR copy of the client's CSR or BSR matrix, and what the
 * solvers and preconditioners need from it (y = A x, the diagonal, the
 * dense diagonal blocks).
 *
 * Why a copy: the client's offsets and indices are its memory and may
 * change while the op runs (ops/op.h), and a solve reads A hundreds of
 * times. Reading each offset and index exactly once, checking it, and
 * keeping the checked value makes every later sweep safe without checking
 * again, and the solve sees one consistent matrix. BSR is expanded to CSR
 * element by element (explicit zeros inside blocks are kept: they cost
 * time, never accuracy), so the solvers and the point preconditioners (the
 * diagonal, SSOR's triangular sweeps) have one format to walk. The copy
 * uses 0-based int32 column indices (n fits in int) and int64 row
 * offsets; values stay in the operator's type.
 *
 * Products: a matrix whose entries lie on at most TRN_DIA_MAX diagonals
 * (j - i constant: the stencil matrices of PDE codes) with at most twice
 * its stored entries once padded to full diagonals is also kept by
 * diagonals, and y = A x runs over those, in chunks of rows: no index
 * traffic and unit-stride streams, the main cost of a Krylov iteration
 * (the bandwidth of the CSR product is ~12 bytes per entry, by diagonals
 * 8). Padding zeros are multiplied too, so an infinite x_j gives NaN where
 * the CSR product would skip it (the solve is non-finite either way). Rows
 * sum their terms in column order in both forms (CSR rows as stored).
 * Double diagonals whose every value is a float (integer stencils: 4, -1)
 * are stored as floats, which is exact and halves what a product reads.
 *
 * Invariants of a trn_csr: rowptr[0] = 0, rowptr non-decreasing up to
 * rowptr[n] = nnz, every col in [0, n). Bad structure fails with a message
 * (trn_kmsg) naming the array, the position and the rule.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/cpu/solver_krylov.h"
#include "kernels/cpu/solver_util.h"
#include "kernels/cpu/sparse_common.h"

#define MATA "A"

#define TRN_DIA_MAX 16
#define DIA_CHUNK 512 /* rows per chunk of the diagonal product: partial sums in L1 */

void trn_csr_free(trn_csr *c) {
    if (!c)
        return;
    free(c->doff);
    free(c->dval);
    free(c->rowptr);
    free(c->col);
    free(c->val);
    free(c);
}

/* Reads the structure-row offsets once each, checks them (off[0] = base,
 * non-decreasing, at most nnz + base) and stores them 0-based in ptr
 * (nrows + 1). Returns 0, or 1 after posting the first rule broken. */
static int checked_offsets(const trn_sp_rows *s, trn_kmsg *msg, int64_t *ptr) {
    int64_t prev = trn_sp_ld(s->off, 0, s->idx64);
    if (prev != s->base) {
        trn_sp_row_fail(s, 0, msg);
        return 1;
    }
    ptr[0] = 0;
    for (int64_t r = 0; r < s->nrows; r++) {
        const int64_t v = trn_sp_ld(s->off, r + 1, s->idx64);
        if (v < prev || v - s->base > s->nnz) {
            trn_sp_row_fail(s, r, msg);
            return 1;
        }
        ptr[r + 1] = v - s->base;
        prev = v;
    }
    return 0;
}

/* Reads the (block) column indices [0, nnz) once each, checks them against
 * [base, ncols - 1 + base] and stores them 0-based in idx. Returns 0, or 1
 * after posting the first bad one (ranked by its row). */
static int checked_indices(const trn_sp_rows *s, const int64_t *ptr, trn_kmsg *msg, int *idx) {
    for (int64_t r = 0; r < s->nrows; r++)
        for (int64_t p = ptr[r]; p < ptr[r + 1]; p++) {
            const int64_t v = trn_sp_ld(s->idx, p, s->idx64);
            if (v < s->base || v - s->base >= s->ncols) {
                char where[48];
                snprintf(where, sizeof(where), " (row %lld)", (long long)r);
                trn_sp_bad_index(msg, (uint64_t)r, s->mat, s->format, TRN_SP_INDICES, p, v, s->base,
                                 s->ncols, where);
                return 1;
            }
            idx[p] = (int)(v - s->base);
        }
    return 0;
}

/* Expands the checked BSR structure (bptr, bcol) into c, element rows in
 * order, columns within each block row in block order. */
static void expand_bsr(const trn_sp_mat *a, const int64_t *bptr, const int *bcol, size_t es,
                       trn_csr *c) {
    const int64_t rb = a->rb, cb = a->cb, bsz = rb * cb;
    int64_t q = 0;
    c->rowptr[0] = 0;
    for (int64_t br = 0; br < a->brows; br++)
        for (int64_t ii = 0; ii < rb; ii++) {
            for (int64_t p = bptr[br]; p < bptr[br + 1]; p++) {
                const char *blk = (const char *)a->values + (size_t)(p * bsz) * es;
                for (int64_t jj = 0; jj < cb; jj++) {
                    const int64_t e = a->block_row_major ? ii * cb + jj : jj * rb + ii;
                    c->col[q] = (int)((int64_t)bcol[p] * cb + jj);
                    memcpy((char *)c->val + (size_t)q * es, blk + (size_t)e * es, es);
                    q++;
                }
            }
            c->rowptr[br * rb + ii + 1] = q;
        }
    c->nnz = q;
}

/* The diagonal form of c when it has at most TRN_DIA_MAX distinct
 * diagonals and their padded size is at most twice nnz; otherwise (or
 * without memory) none, which is never an error. */
static void build_dia(trn_csr *c, trn_dtype t) {
    if (t != TRN_DTYPE_R32F && t != TRN_DTYPE_R64F)
        return; /* complex values (the direct solvers) never take this path */
    int64_t off[TRN_DIA_MAX];
    int nd = 0;
    for (int i = 0; i < c->n; i++)
        for (int64_t p = c->rowptr[i]; p < c->rowptr[i + 1]; p++) {
            const int64_t o = (int64_t)c->col[p] - i;
            int d = 0;
            while (d < nd && off[d] != o)
                d++;
            if (d == nd) {
                if (nd == TRN_DIA_MAX)
                    return;
                off[nd++] = o;
            }
        }
    if (nd == 0 || (double)nd * (double)c->n > 2.0 * (double)c->nnz)
        return;
    for (int x = 1; x < nd; x++) /* ascending: rows sum in column order */
        for (int y = x; y > 0 && off[y - 1] > off[y]; y--) {
            const int64_t tmp = off[y];
            off[y] = off[y - 1];
            off[y - 1] = tmp;
        }
    const size_t es = trn_dtype_size(t);
    c->doff = trn_solver_alloc((size_t)nd, sizeof(int64_t));
    c->dval = calloc((size_t)nd * (size_t)c->n, es);
    if (!c->doff || !c->dval) {
        free(c->doff);
        free(c->dval);
        c->doff = NULL;
        c->dval = NULL;
        return;
    }
    memcpy(c->doff, off, (size_t)nd * sizeof(int64_t));
    for (int i = 0; i < c->n; i++)
        for (int64_t p = c->rowptr[i]; p < c->rowptr[i + 1]; p++) {
            const int64_t o = (int64_t)c->col[p] - i;
            int d = 0;
            while (off[d] != o)
                d++;
            const size_t k = (size_t)d * (size_t)c->n + (size_t)i;
            if (t == TRN_DTYPE_R32F)
                ((float *)c->dval)[k] += ((const float *)c->val)[p];
            else
                ((double *)c->dval)[k] += ((const double *)c->val)[p];
        }
    c->dval_f32 = t == TRN_DTYPE_R32F;
    if (t == TRN_DTYPE_R64F) {
        /* Double diagonals whose values all are floats (4, -1, ...) are
         * kept as floats: converting back is exact, so the products are the
         * same bits with half the bytes to read. */
        const size_t total = (size_t)nd * (size_t)c->n;
        const double *dv = c->dval;
        size_t k = 0;
        while (k < total && (double)(float)dv[k] == dv[k])
            k++;
        float *f = k == total ? trn_solver_alloc(total, sizeof(float)) : NULL;
        if (f) {
            for (k = 0; k < total; k++)
                f[k] = (float)dv[k];
            free(c->dval);
            c->dval = f;
            c->dval_f32 = 1;
        }
    }
    c->ndiag = nd;
}

int trn_csr_create(const trn_sp_mat *a, int n, trn_kmsg *msg, trn_csr **out) {
    *out = NULL;
    const size_t es = trn_dtype_size(a->type);
    const trn_sp_rows s = trn_sp_rows_of(a, MATA);
    /* Elements the copy holds: nnz (CSR) or nnz rb cb (BSR), which the
     * validator checked fit in the values buffer, hence in size_t. */
    const size_t cap = (size_t)a->nnz * (size_t)a->rb * (size_t)a->cb;
    /* What the copy needs: rowptr, col and val. */
    const size_t copy_bytes = ((size_t)n + 1) * sizeof(int64_t) + cap * (sizeof(int) + es);
    trn_csr *c = calloc(1, sizeof(*c));
    int64_t *bptr = NULL;
    int *bcol = NULL;
    int rc = -1;
    if (!c) {
        trn_kmsg_no_memory(msg, 0, sizeof(*c), "the copy of the operator");
        return -1;
    }
    c->n = n;
    c->rowptr = trn_solver_alloc((size_t)n + 1, sizeof(int64_t));
    c->col = trn_solver_alloc(cap, sizeof(int));
    c->val = trn_solver_alloc(cap, es);
    if (!c->rowptr || !c->col || !c->val) {
        trn_kmsg_no_memory(msg, 0, copy_bytes, "the CSR copy of the operator (n %d, %zu entries)",
                           n, cap);
        goto out;
    }
    if (a->format == TRN_SP_CSR) {
        if (checked_offsets(&s, msg, c->rowptr) || checked_indices(&s, c->rowptr, msg, c->col)) {
            rc = 1;
            goto out;
        }
        c->nnz = c->rowptr[n];
        if (c->nnz > 0)
            memcpy(c->val, a->values, (size_t)c->nnz * es);
    } else {
        bptr = trn_solver_alloc((size_t)a->brows + 1, sizeof(int64_t));
        bcol = trn_solver_alloc((size_t)a->nnz, sizeof(int));
        if (!bptr || !bcol) {
            trn_kmsg_no_memory(
                msg, 0, ((size_t)a->brows + 1) * sizeof(int64_t) + (size_t)a->nnz * sizeof(int),
                "the checked block structure of the operator (%lld blocks)", (long long)a->nnz);
            goto out;
        }
        if (checked_offsets(&s, msg, bptr) || checked_indices(&s, bptr, msg, bcol)) {
            rc = 1;
            goto out;
        }
        expand_bsr(a, bptr, bcol, es, c);
    }
    build_dia(c, a->type);
    rc = 0;
out:
    free(bptr);
    free(bcol);
    if (rc != 0)
        trn_csr_free(c);
    else
        *out = c;
    return rc;
}

/* y = A x accumulated in the type (as GEMV does): by diagonals, DIA_CHUNK
 * rows at a time (diagonal d covers the rows i with 0 <= i + doff[d] < n),
 * or one CSR row at a time. With acc, x . y is accumulated into it chunk by
 * chunk while both are in cache (chunks of DIA_CHUNK rows, a multiple of 4:
 * the same bits as a dot taken afterwards). A row's value does not depend
 * on which rows are computed with it, so trn_csr_rows gives the same bits
 * as the whole product. */
#define CSR_APPLY(SUF, T, ACC, ADD)                                                                \
    /* Rows [i0, i1) (at most DIA_CHUNK of them) into y[0 .. i1 - i0). */                          \
    static void csr_chunk_##SUF(const trn_csr *c, const T *x, T *y, int64_t i0, int64_t i1) {      \
        const int64_t n = c->n;                                                                    \
        const int64_t *rp = c->rowptr;                                                             \
        const int *col = c->col;                                                                   \
        const T *v = c->val;                                                                       \
        if (c->ndiag > 0) {                                                                        \
            T sum[DIA_CHUNK];                                                                      \
            memset(sum, 0, sizeof(sum));                                                           \
            for (int d = 0; d < c->ndiag; d++) {                                                   \
                const int64_t o = c->doff[d];                                                      \
                const int64_t lo = i0 > -o ? i0 : -o, hi = i1 < n - o ? i1 : n - o;                \
                if (c->dval_f32) {                                                                 \
                    const float *dv = (const float *)c->dval + d * n;                              \
                    for (int64_t i = lo; i < hi; i++)                                              \
                        sum[i - i0] += (T)dv[i] * x[i + o];                                        \
                } else {                                                                           \
                    const T *dv = (const T *)c->dval + d * n;                                      \
                    for (int64_t i = lo; i < hi; i++)                                              \
                        sum[i - i0] += dv[i] * x[i + o];                                           \
                }                                                                                  \
            }                                                                                      \
            memcpy(y, sum, (size_t)(i1 - i0) * sizeof(T));                                         \
            return;                                                                                \
        }                                                                                          \
        for (int64_t i = i0; i < i1; i++) {                                                        \
            T s0 = 0, s1 = 0;                                                                      \
            int64_t p = rp[i];                                                                     \
            const int64_t e = rp[i + 1];                                                           \
            for (; p + 2 <= e; p += 2) {                                                           \
                s0 += v[p] * x[col[p]];                                                            \
                s1 += v[p + 1] * x[col[p + 1]];                                                    \
            }                                                                                      \
            if (p < e)                                                                             \
                s0 += v[p] * x[col[p]];                                                            \
            y[i - i0] = s0 + s1;                                                                   \
        }                                                                                          \
    }                                                                                              \
    void trn_csr_apply_##SUF(const trn_csr *c, const T *x, T *y, ACC *acc) {                       \
        const int64_t n = c->n;                                                                    \
        for (int64_t i0 = 0; i0 < n; i0 += DIA_CHUNK) {                                            \
            const int64_t i1 = n - i0 < DIA_CHUNK ? n : i0 + DIA_CHUNK;                            \
            csr_chunk_##SUF(c, x, y + i0, i0, i1);                                                 \
            if (acc)                                                                               \
                ADD(acc, (int)(i1 - i0), x + i0, y + i0);                                          \
        }                                                                                          \
    }                                                                                              \
    void trn_csr_rows_##SUF(const trn_csr *c, const T *x, T *y, int64_t lo, int64_t hi) {          \
        for (int64_t i0 = lo; i0 < hi; i0 += DIA_CHUNK) {                                          \
            const int64_t i1 = hi - i0 < DIA_CHUNK ? hi : i0 + DIA_CHUNK;                          \
            csr_chunk_##SUF(c, x, y + (i0 - lo), i0, i1);                                          \
        }                                                                                          \
    }
CSR_APPLY(s, float, trn_sacc, trn_sacc_add)
CSR_APPLY(d, double, trn_dacc, trn_dacc_add)

double trn_csr_diag(const trn_csr *c, trn_dtype t, int i) {
    double d = 0.0;
    for (int64_t p = c->rowptr[i]; p < c->rowptr[i + 1]; p++)
        if (c->col[p] == i)
            d += t == TRN_DTYPE_R32F ? (double)((const float *)c->val)[p]
                                     : ((const double *)c->val)[p];
    return d;
}

void trn_csr_block(const trn_csr *c, trn_dtype t, int s, int nb, void *blk) {
    const size_t es = trn_dtype_size(t);
    memset(blk, 0, (size_t)nb * (size_t)nb * es);
    for (int i = s; i < s + nb; i++)
        for (int64_t p = c->rowptr[i]; p < c->rowptr[i + 1]; p++) {
            const int j = c->col[p];
            if (j < s || j >= s + nb)
                continue;
            const size_t k = (size_t)(j - s) * (size_t)nb + (size_t)(i - s);
            if (t == TRN_DTYPE_R32F)
                ((float *)blk)[k] += ((const float *)c->val)[p];
            else
                ((double *)blk)[k] += ((const double *)c->val)[p];
        }
}
