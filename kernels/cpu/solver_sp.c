/*
 * solver_sp.c — cusolverSp's direct solvers for a square sparse A given in
 * CSR: csrlsvqr (A x = b by QR) and csrlsvchol (by Cholesky of A's lower
 * triangle), real and complex, single and double precision.
 *
 * The matrix is expanded to a dense n x n one (duplicates summed) and
 * factorised by LAPACK: O(n^2) memory and O(n^3) time whatever its sparsity
 * (n is at most TRN_CSRLSV_MAX_N, checked by the validator), which suits
 * the moderate n these routines are used at; cuSOLVER's sparse QR with
 * reordering is not reproduced, so `reorder` changes nothing.
 *
 *  - QR: Householder QR without pivoting (geqrf); singularity = the first
 *    j (0-based) with |R(j,j)| <= tol (the modulus for complex types),
 *    else x = R^-1 Q^H b (ormqr / unmqr).
 *  - Cholesky: potrf of the lower triangle (entries above the diagonal are
 *    ignored, as cuSOLVER does; for complex types the Hermitian matrix the
 *    lower triangle defines, so the imaginary parts on the diagonal are
 *    ignored too); singularity = the first j where the factorisation breaks
 *    down or the real L(j,j) <= tol, else x from potrs.
 * singularity (-1: none) goes to stats.iterations; x is not written when
 * A is found singular. The CSR structure is checked (solver_csr.c) before
 * anything is read; bad structure fails the op with a message. One core.
 */
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/cpu/cpu_kernels.h"
#include "kernels/cpu/solver_krylov.h"
#include "kernels/cpu/solver_lapack.h"
#include "kernels/cpu/solver_util.h"

#define COL LAPACK_COL_MAJOR

static double get(const void *p, size_t k, int dbl) {
    return dbl ? ((const double *)p)[k] : (double)((const float *)p)[k];
}

static void add(void *p, size_t k, int dbl, double v) {
    if (dbl)
        ((double *)p)[k] += v;
    else
        ((float *)p)[k] += (float)v;
}

/* The singularity of the factor f (n x n, nc components per element): the
 * first j whose diagonal fails the test, or -1. QR tests |R(j,j)|,
 * Cholesky the real L(j,j). */
static int first_small(const void *f, int n, int nc, int dbl, double tol, int qr) {
    for (int j = 0; j < n; j++) {
        const size_t k = ((size_t)j * (size_t)n + (size_t)j) * (size_t)nc;
        const double re = get(f, k, dbl), im = nc == 2 ? get(f, k + 1, dbl) : 0.0;
        if (qr ? !(hypot(re, im) > tol) : !(re > tol))
            return j;
    }
    return -1;
}

/* x = Q^H x for the QR (f, tau) of the n x n factor: ormqr for real
 * types, unmqr for complex ones. */
static void apply_qh(trn_dtype t, int n, void *f, void *tau, void *x, void *work,
                     lapack_int lwork) {
    TRN_BY_TYPE(t,
                TRN_LIB(LAPACKE_sormqr_work)(COL, 'L', 'T', n, 1, n, f, n, tau, x, n, work, lwork),
                TRN_LIB(LAPACKE_dormqr_work)(COL, 'L', 'T', n, 1, n, f, n, tau, x, n, work, lwork),
                TRN_LIB(LAPACKE_cunmqr_work)(COL, 'L', 'C', n, 1, n, f, n, tau, x, n, work, lwork),
                TRN_LIB(LAPACKE_zunmqr_work)(COL, 'L', 'C', n, 1, n, f, n, tau, x, n, work, lwork));
}

trn_kstatus trn_cpu_csrlsv(const trn_solver_krylov_desc *d, trn_kmsg *msg) {
    const int n = d->op.n, qr = d->fn == TRN_SOLVER_CSRLSVQR;
    const int dbl = d->type == TRN_DTYPE_R64F || d->type == TRN_DTYPE_C64F;
    const int nc = d->type == TRN_DTYPE_C32F || d->type == TRN_DTYPE_C64F ? 2 : 1;
    const size_t es = trn_dtype_size(d->type);
    if (n == 0) {
        trn_solver_put_stats(d->stats, -1, TRN_SOLVER_ST_CONVERGED, 0.0);
        return TRN_KSTATUS_OK;
    }
    trn_csr *csr = NULL;
    const int cr = trn_csr_create(&d->op.sp, n, msg, &csr);
    if (cr != 0)
        return cr < 0 ? TRN_KSTATUS_NO_MEMORY : TRN_KSTATUS_FAILED;
    const size_t nn = (size_t)n * (size_t)n;
    const size_t lwork = (size_t)n * 64; /* enough for LAPACK's blocked QR */
    void *f = trn_solver_alloc(nn, es);
    void *tau = qr ? trn_solver_alloc((size_t)n, es) : NULL;
    void *work = qr ? trn_solver_alloc(lwork, es) : NULL;
    void *x = trn_solver_alloc((size_t)n, es);
    trn_kstatus ks = TRN_KSTATUS_OK;
    if (!f || !x || (qr && (!tau || !work))) {
        trn_kmsg_no_memory(msg, 0, (nn + lwork + 2 * (size_t)n) * es,
                           "the dense factor of %s (n %d)", qr ? "csrlsvqr" : "csrlsvchol", n);
        ks = TRN_KSTATUS_NO_MEMORY;
        goto out;
    }
    memset(f, 0, nn * es);
    for (int i = 0; i < n; i++)
        for (int64_t p = csr->rowptr[i]; p < csr->rowptr[i + 1]; p++) {
            const int j = csr->col[p];
            if (!qr && j > i)
                continue; /* Cholesky reads the lower triangle only */
            for (int k = 0; k < nc; k++)
                if (qr || j != i || k == 0) /* a Hermitian diagonal is real */
                    add(f, ((size_t)j * (size_t)n + (size_t)i) * (size_t)nc + (size_t)k, dbl,
                        get(csr->val, (size_t)p * (size_t)nc + (size_t)k, dbl));
        }
    int sing;
    if (qr) {
        TRN_LAPACK4(d->type, geqrf_work, COL, n, n, f, n, tau, work, (lapack_int)lwork);
        sing = first_small(f, n, nc, dbl, d->tol, 1);
    } else {
        const lapack_int info = TRN_LAPACK4(d->type, potrf_work, COL, 'L', n, f, n);
        sing = first_small(f, n, nc, dbl, d->tol, 0);
        if (info > 0 && (sing < 0 || info - 1 < sing))
            sing = (int)info - 1;
    }
    if (sing < 0) {
        memcpy(x, d->b, (size_t)n * es);
        if (qr) {
            apply_qh(d->type, n, f, tau, x, work, (lapack_int)lwork);
            trn_blas_trsm(d->type, CblasLeft, CblasUpper, CblasNoTrans, CblasNonUnit, n, 1, 1.0, f,
                          n, x, n);
        } else {
            TRN_LAPACK4(d->type, potrs_work, COL, 'L', n, 1, f, n, x, n);
        }
        memcpy(d->x, x, (size_t)n * es);
    }
    trn_solver_put_stats(d->stats, sing, TRN_SOLVER_ST_CONVERGED, 0.0);
out:
    free(f);
    free(tau);
    free(work);
    free(x);
    trn_csr_free(csr);
    return ks;
}
