/*
 * solver_linop.c — the operators of trnsolver's Krylov solvers and the
 * preconditioners built from them: y = A x, and Jacobi, block-Jacobi and
 * SSOR. This is the one file that knows the operator's storage: a dense
 * column-major matrix (GEMV through OpenBLAS) or the kernel's checked CSR
 * copy of a trnsparse CSR / BSR matrix (solver_csr.c; BSR is expanded, so
 * the point preconditioners see its elements).
 *
 * Preconditioners (M^-1 r, D the diagonal of A, L and U its strictly lower
 * and upper parts):
 *  - Jacobi: D^-1 r.
 *  - block-Jacobi: the diagonal blocks of size block_size (the last one
 *    smaller), each LU-factorised with partial pivoting (LAPACK getrf).
 *  - SSOR(omega): M = (D + omega L) D^-1 (D + omega U) / (omega (2 - omega)),
 *    symmetric positive definite when A is and 0 < omega < 2; applied by a
 *    forward and a backward triangular sweep, over A's columns (dense) or
 *    rows (CSR: y_i = (r_i - omega sum_{j<i} a_ij y_j) / a_ii, then the
 *    mirror image over j > i).
 * Setup refuses (returns 1) a zero or non-finite diagonal entry (Jacobi,
 * SSOR) or a singular or non-finite diagonal block (block-Jacobi): the
 * solver then reports TRN_SOLVER_ST_PRECOND.
 */
#include <cblas.h>
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/cpu/routines.h"
#include "kernels/cpu/solver_krylov.h"
#include "kernels/cpu/solver_util.h"

struct trn_precond {
    trn_precond_kind kind;
    const trn_kop *op;
    int n, bs;
    double omega;
    void *diag;      /* Jacobi: 1 / a_ii; SSOR: a_ii (the operator's type) */
    void *blocks;    /* block-Jacobi: the LU factors, block after block, ld = its size */
    lapack_int *piv; /* block-Jacobi pivots, n of them */
};

void trn_linop_apply_s(const void *ctx, const float *x, float *y) {
    const trn_kop *k = ctx;
    const trn_linop *op = k->lin;
    switch (op->kind) {
    case TRN_LINOP_DENSE:
        TRN_LIB(cblas_sgemv)
        (CblasColMajor, CblasNoTrans, op->n, op->n, 1.0f, op->a, op->lda, x, 1, 0.0f, y, 1);
        break;
    case TRN_LINOP_SPARSE: trn_csr_apply_s(k->csr, x, y, NULL); break;
    }
}

void trn_linop_apply_d(const void *ctx, const double *x, double *y) {
    const trn_kop *k = ctx;
    const trn_linop *op = k->lin;
    switch (op->kind) {
    case TRN_LINOP_DENSE:
        TRN_LIB(cblas_dgemv)
        (CblasColMajor, CblasNoTrans, op->n, op->n, 1.0, op->a, op->lda, x, 1, 0.0, y, 1);
        break;
    case TRN_LINOP_SPARSE: trn_csr_apply_d(k->csr, x, y, NULL); break;
    }
}

double trn_linop_apply_dot_s(const void *ctx, const float *x, float *y) {
    const trn_kop *k = ctx;
    if (k->lin->kind != TRN_LINOP_SPARSE) {
        trn_linop_apply_s(ctx, x, y);
        return trn_sdot_acc(k->lin->n, x, y);
    }
    trn_sacc acc = {{0, 0, 0, 0}};
    trn_csr_apply_s(k->csr, x, y, &acc);
    return trn_sacc_finish(&acc);
}

double trn_linop_apply_dot_d(const void *ctx, const double *x, double *y) {
    const trn_kop *k = ctx;
    if (k->lin->kind != TRN_LINOP_SPARSE) {
        trn_linop_apply_d(ctx, x, y);
        return trn_ddot_acc(k->lin->n, x, y);
    }
    trn_dacc acc = {{0, 0, 0, 0}, {0, 0, 0, 0}};
    trn_csr_apply_d(k->csr, x, y, &acc);
    return trn_dacc_finish(&acc);
}

/* a_ii as a double. */
static double diag_at(const trn_kop *k, trn_dtype t, int i) {
    const trn_linop *op = k->lin;
    if (op->kind == TRN_LINOP_SPARSE)
        return trn_csr_diag(k->csr, t, i);
    const size_t e = (size_t)i * (size_t)op->lda + (size_t)i;
    return t == TRN_DTYPE_R32F ? (double)((const float *)op->a)[e] : ((const double *)op->a)[e];
}

/* The diagonal block A(s:s+nb, s:s+nb) into blk (ld nb). */
static void diag_block(const trn_kop *k, trn_dtype t, int s, int nb, void *blk) {
    const trn_linop *op = k->lin;
    const size_t es = trn_dtype_size(t);
    if (op->kind == TRN_LINOP_SPARSE)
        trn_csr_block(k->csr, t, s, nb, blk);
    else
        trn_solver_copy(nb, nb, es, (const char *)op->a + ((size_t)s * op->lda + s) * es, op->lda,
                        blk, nb);
}

void trn_precond_free(trn_precond *p) {
    if (!p)
        return;
    free(p->diag);
    free(p->blocks);
    free(p->piv);
    free(p);
}

int trn_precond_create(const trn_kop *op, trn_dtype t, trn_precond_kind kind, int block_size,
                       double omega, trn_kmsg *msg, trn_precond **out) {
    *out = NULL;
    if (kind == TRN_PRECOND_NONE)
        return 0;
    const int n = op->lin->n;
    const size_t es = trn_dtype_size(t);
    trn_precond *p = calloc(1, sizeof(*p));
    if (!p) {
        trn_kmsg_no_memory(msg, 0, sizeof(*p), "the preconditioner");
        return -1;
    }
    p->kind = kind;
    p->op = op;
    p->n = n;
    p->omega = omega;
    p->bs = block_size > 0 ? block_size : 1;
    int rc = 0;
    switch (kind) {
    case TRN_PRECOND_JACOBI:
    case TRN_PRECOND_SSOR:
        p->diag = trn_solver_alloc((size_t)n, es);
        if (!p->diag) {
            trn_kmsg_no_memory(msg, 0, (size_t)n * es, "the preconditioner's diagonal (n %d)", n);
            rc = -1;
            break;
        }
        for (int i = 0; i < n && rc == 0; i++) {
            const double a = diag_at(op, t, i);
            const double v = kind == TRN_PRECOND_JACOBI ? 1.0 / a : a;
            if (a == 0.0 || !isfinite(v) || (t == TRN_DTYPE_R32F && !isfinite((float)v)))
                rc = 1;
            else if (t == TRN_DTYPE_R32F)
                ((float *)p->diag)[i] = (float)v;
            else
                ((double *)p->diag)[i] = v;
        }
        break;
    case TRN_PRECOND_BLOCK_JACOBI: {
        /* Blocks of bs x bs, the last of n % bs: n * bs elements at most. */
        p->blocks = trn_solver_alloc((size_t)n * (size_t)p->bs, es);
        p->piv = trn_solver_alloc((size_t)n, sizeof(lapack_int));
        if (!p->blocks || !p->piv) {
            trn_kmsg_no_memory(msg, 0,
                               (size_t)n * (size_t)p->bs * es + (size_t)n * sizeof(lapack_int),
                               "the block-Jacobi factors (n %d, blocks of %d)", n, p->bs);
            rc = -1;
            break;
        }
        size_t off = 0;
        for (int s = 0; s < n && rc == 0; s += p->bs) {
            const int nb = n - s < p->bs ? n - s : p->bs;
            char *blk = (char *)p->blocks + off * es;
            diag_block(op, t, s, nb, blk);
            if (trn_solver_nonfinite(t, nb, nb, blk, nb)) {
                rc = 1;
                break;
            }
            const lapack_int info =
                t == TRN_DTYPE_R32F ? TRN_LIB(LAPACKE_sgetrf_work)(LAPACK_COL_MAJOR, nb, nb,
                                                                   (float *)blk, nb, p->piv + s)
                                    : TRN_LIB(LAPACKE_dgetrf_work)(LAPACK_COL_MAJOR, nb, nb,
                                                                   (double *)blk, nb, p->piv + s);
            if (info != 0)
                rc = 1;
            off += (size_t)nb * (size_t)nb;
        }
        break;
    }
    case TRN_PRECOND_NONE: break;
    }
    if (rc != 0) {
        trn_precond_free(p);
        return rc;
    }
    *out = p;
    return 0;
}

/* SSOR for one precision: M^-1 r = omega (2 - omega) (D + omega U)^-1 D
 * (D + omega L)^-1 r, on a dense operator (column sweeps) or the CSR copy
 * (row sweeps). */
#define SSOR_APPLY(SUF, T)                                                                         \
    static void ssor_dense_##SUF(const trn_precond *p, const T *r, T *z) {                         \
        const int n = p->n;                                                                        \
        const T *dg = p->diag;                                                                     \
        const T *a = p->op->lin->a;                                                                \
        const size_t lda = (size_t)p->op->lin->lda;                                                \
        const T w = (T)p->omega;                                                                   \
        memcpy(z, r, (size_t)n * sizeof(T));                                                       \
        for (int j = 0; j < n; j++) { /* (D + omega L) y = r */                                    \
            z[j] /= dg[j];                                                                         \
            const T f = w * z[j];                                                                  \
            const T *col = a + (size_t)j * lda;                                                    \
            for (int i = j + 1; i < n; i++)                                                        \
                z[i] -= f * col[i];                                                                \
        }                                                                                          \
        for (int j = 0; j < n; j++) /* times D */                                                  \
            z[j] *= dg[j];                                                                         \
        for (int j = n - 1; j >= 0; j--) { /* (D + omega U) z = D y */                             \
            z[j] /= dg[j];                                                                         \
            const T f = w * z[j];                                                                  \
            const T *col = a + (size_t)j * lda;                                                    \
            for (int i = 0; i < j; i++)                                                            \
                z[i] -= f * col[i];                                                                \
        }                                                                                          \
        const T sc = (T)(p->omega * (2.0 - p->omega));                                             \
        for (int j = 0; j < n; j++)                                                                \
            z[j] *= sc;                                                                            \
    }                                                                                              \
    static void ssor_csr_##SUF(const trn_precond *p, const T *r, T *z) {                           \
        const trn_csr *c = p->op->csr;                                                             \
        const int64_t *rp = c->rowptr;                                                             \
        const int *col = c->col;                                                                   \
        const T *v = c->val;                                                                       \
        const T *dg = p->diag;                                                                     \
        const T w = (T)p->omega;                                                                   \
        for (int i = 0; i < c->n; i++) { /* (D + omega L) y = r, then times D */                   \
            T s = 0;                                                                               \
            for (int64_t q = rp[i]; q < rp[i + 1]; q++)                                            \
                if (col[q] < i)                                                                    \
                    s += v[q] * z[col[q]];                                                         \
            z[i] = (r[i] - w * s) / dg[i];                                                         \
        }                                                                                          \
        for (int i = 0; i < c->n; i++)                                                             \
            z[i] *= dg[i];                                                                         \
        const T sc = (T)(p->omega * (2.0 - p->omega));                                             \
        for (int i = c->n - 1; i >= 0; i--) { /* (D + omega U) z = D y */                          \
            T s = 0;                                                                               \
            for (int64_t q = rp[i]; q < rp[i + 1]; q++)                                            \
                if (col[q] > i)                                                                    \
                    s += v[q] * z[col[q]];                                                         \
            z[i] = (z[i] - w * s) / dg[i];                                                         \
        }                                                                                          \
        for (int i = 0; i < c->n; i++)                                                             \
            z[i] *= sc;                                                                            \
    }
SSOR_APPLY(s, float)
SSOR_APPLY(d, double)

/* The apply functions for one precision (float and double). */
#define PRECOND_APPLY(SUF, T, GETRS)                                                               \
    void trn_precond_apply_##SUF(const void *ctx, const T *r, T *z) {                              \
        const trn_precond *p = ctx;                                                                \
        const int n = p->n;                                                                        \
        const T *dg = p->diag;                                                                     \
        switch (p->kind) {                                                                         \
        case TRN_PRECOND_JACOBI:                                                                   \
            for (int i = 0; i < n; i++)                                                            \
                z[i] = r[i] * dg[i];                                                               \
            break;                                                                                 \
        case TRN_PRECOND_BLOCK_JACOBI: {                                                           \
            memcpy(z, r, (size_t)n * sizeof(T));                                                   \
            const T *blk = p->blocks;                                                              \
            for (int s = 0; s < n; s += p->bs) {                                                   \
                const int nb = n - s < p->bs ? n - s : p->bs;                                      \
                GETRS(LAPACK_COL_MAJOR, 'N', nb, 1, blk, nb, p->piv + s, z + s, nb);               \
                blk += (size_t)nb * (size_t)nb;                                                    \
            }                                                                                      \
            break;                                                                                 \
        }                                                                                          \
        case TRN_PRECOND_SSOR:                                                                     \
            if (p->op->csr)                                                                        \
                ssor_csr_##SUF(p, r, z);                                                           \
            else                                                                                   \
                ssor_dense_##SUF(p, r, z);                                                         \
            break;                                                                                 \
        case TRN_PRECOND_NONE: memcpy(z, r, (size_t)n * sizeof(T)); break;                         \
        }                                                                                          \
    }
PRECOND_APPLY(s, float, LAPACKE_sgetrs_work)
PRECOND_APPLY(d, double, LAPACKE_dgetrs_work)
