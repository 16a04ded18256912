/*
 * solver_csr.c — the sparse operator of trnsolver's Krylov solvers: a
 * private, checked CSR copy of the client's CSR or BSR matrix, and what the
 * solvers and preconditioners need from it (y = A x, the diagonal, the
 * dense diagonal blocks).
 *
 * Why a copy: the client's offsets and indices are its memory and may
 * change while the op runs (kernels/op.h), and a solve reads A hundreds of
 * times. Reading each offset and index exactly once, checking it, and
 * keeping the checked value makes every later sweep safe without checking
 * again, and the solve sees one consistent matrix. BSR is expanded to CSR
 * element by element (explicit zeros inside blocks are kept: they cost
 * time, never accuracy), so the solvers and the point preconditioners (the
 * diagonal, SSOR's triangular sweeps) have one format to walk. The copy
 * uses 0-based int32 column indices (n fits in int) and int64 row
 * offsets; values stay in the operator's type.
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

void trn_csr_free(trn_csr *c) {
    if (!c)
        return;
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

int trn_csr_create(const trn_sp_mat *a, int n, trn_kmsg *msg, trn_csr **out) {
    *out = NULL;
    const size_t es = trn_dtype_size(a->type);
    const trn_sp_rows s = trn_sp_rows_of(a, MATA);
    /* Elements the copy holds: nnz (CSR) or nnz rb cb (BSR), which the
     * validator checked fit in the values buffer, hence in size_t. */
    const size_t cap = (size_t)a->nnz * (size_t)a->rb * (size_t)a->cb;
    trn_csr *c = calloc(1, sizeof(*c));
    int64_t *bptr = NULL;
    int *bcol = NULL;
    int rc = -1;
    if (!c)
        return -1;
    c->n = n;
    c->rowptr = trn_solver_alloc((size_t)n + 1, sizeof(int64_t));
    c->col = trn_solver_alloc(cap, sizeof(int));
    c->val = trn_solver_alloc(cap, es);
    if (!c->rowptr || !c->col || !c->val)
        goto out;
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
        if (!bptr || !bcol)
            goto out;
        if (checked_offsets(&s, msg, bptr) || checked_indices(&s, bptr, msg, bcol)) {
            rc = 1;
            goto out;
        }
        expand_bsr(a, bptr, bcol, es, c);
    }
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

/* y = A x, one row at a time, accumulated in the type (as GEMV does). */
#define CSR_APPLY(SUF, T)                                                                          \
    void trn_csr_apply_##SUF(const trn_csr *c, const T *x, T *y) {                                 \
        const int64_t *rp = c->rowptr;                                                             \
        const int *col = c->col;                                                                   \
        const T *v = c->val;                                                                       \
        for (int i = 0; i < c->n; i++) {                                                           \
            T s0 = 0, s1 = 0;                                                                      \
            int64_t p = rp[i];                                                                     \
            const int64_t e = rp[i + 1];                                                           \
            for (; p + 2 <= e; p += 2) {                                                           \
                s0 += v[p] * x[col[p]];                                                            \
                s1 += v[p + 1] * x[col[p + 1]];                                                    \
            }                                                                                      \
            if (p < e)                                                                             \
                s0 += v[p] * x[col[p]];                                                            \
            y[i] = s0 + s1;                                                                        \
        }                                                                                          \
    }
CSR_APPLY(s, float)
CSR_APPLY(d, double)

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
