/*
 * solver_refine.c — the trnsci extensions of trnsolver (docs/numerics.md):
 *
 *  - invSqrtSpd: X = A^(-1/2) for a symmetric positive definite A by the
 *    coupled Newton–Schulz iteration (Higham, Functions of Matrices, 6.35),
 *    GEMMs only: Y0 = A / c, Z0 = I with c = ||A||_F (so the spectrum of Y0
 *    lies in (0, 1]), T = (3 I - Z Y) / 2, Y <- Y T, Z <- T Z; Z tends to
 *    (A / c)^(-1/2), and X = Z / sqrt(c). It stops when ||I - Z Y||_F /
 *    sqrt(n) <= tol, or when that stops decreasing (the rounding floor), or
 *    at max_iters. The residual reported is ||I - X A X||_F / sqrt(n) of the
 *    returned X, computed afresh (two more GEMMs).
 *  - solveSpd: A X = B for an SPD A in FP64 by iterative refinement with an
 *    FP32 Cholesky factorisation (LAPACK dsposv's scheme): residuals in
 *    FP64, corrections from the FP32 factor, until the normwise backward
 *    error eta = max_j ||b_j - A x_j||_inf / (||A||_inf ||x_j||_inf +
 *    ||b_j||_inf) <= tol. If the FP32 factorisation fails, A does not fit
 *    in FP32, or max_iters pass, it falls back to an FP64 Cholesky solve
 *    (status TRN_SOLVER_ST_FALLBACK); info > 0 when even that finds A not
 *    positive definite (X is then unspecified).
 *  - gmresIr: A X = B for a general A in FP64 by GMRES-based iterative
 *    refinement (Carson and Higham 2018): an FP32 LU factorisation with
 *    partial pivoting, each correction solved by FP64 GMRES(restart)
 *    right-preconditioned with that LU (to a relative residual of 1e-6, one
 *    restart cycle), the same stopping rule and FP64 LU fallback as
 *    solveSpd; info > 0 when the FP64 LU finds a zero pivot.
 * All run on one core and allocate their workspace here (without memory the
 * op fails with TRN_KSTATUS_NO_MEMORY, the message saying how much; the
 * iteration record is not written, X and info may be, when the fallback's
 * allocation is the one that fails).
 */
#include <cblas.h>
#include <float.h>
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/cpu/cpu_kernels.h"
#include "kernels/cpu/routines.h"
#include "kernels/cpu/solver_krylov.h"
#include "kernels/cpu/solver_util.h"

#define COL LAPACK_COL_MAJOR
#define NOMEM (-1)

/* ---- inverse square root ------------------------------------------------------------- */

/* ||I - W||_F / sqrt(n) for an n x n matrix W (leading dimension n). */
#define IDENT_RESID(SUF, T)                                                                        \
    static double ident_resid_##SUF(int n, const T *w) {                                           \
        double s = 0.0;                                                                            \
        for (int j = 0; j < n; j++)                                                                \
            for (int i = 0; i < n; i++) {                                                          \
                const double e = (i == j ? 1.0 : 0.0) - (double)w[(size_t)j * n + i];              \
                s += e * e;                                                                        \
            }                                                                                      \
        return sqrt(s / n);                                                                        \
    }
IDENT_RESID(s, float)
IDENT_RESID(d, double)

#define INV_SQRT(SUF, T, GEMM)                                                                     \
    static int inv_sqrt_##SUF(const trn_solver_refine_desc *d, trn_kmsg *msg, int *iters,          \
                              double *res) {                                                       \
        const int n = d->n, lda = d->lda;                                                          \
        const T *a = d->a;                                                                         \
        *iters = 0;                                                                                \
        *res = 0.0;                                                                                \
        if (n == 0)                                                                                \
            return TRN_SOLVER_ST_CONVERGED;                                                        \
        const size_t nn = (size_t)n * (size_t)n;                                                   \
        T *y = trn_solver_alloc(nn * 4, sizeof(T));                                                \
        if (!y) {                                                                                  \
            trn_kmsg_no_memory(msg, 0, nn * 4 * sizeof(T),                                         \
                               "the Newton-Schulz iterates (4 x %d x %d)", n, n);                  \
            return NOMEM;                                                                          \
        }                                                                                          \
        T *z = y + nn, *t = z + nn, *w = t + nn;                                                   \
        double c2 = 0.0;                                                                           \
        for (int j = 0; j < n; j++)                                                                \
            for (int i = 0; i < n; i++)                                                            \
                c2 += (double)a[(size_t)j * lda + i] * (double)a[(size_t)j * lda + i];             \
        const double c = sqrt(c2);                                                                 \
        int st = TRN_SOLVER_ST_MAX_ITERS;                                                          \
        if (!isfinite(c) || c == 0.0) {                                                            \
            st = c == 0.0 ? TRN_SOLVER_ST_BREAKDOWN : TRN_SOLVER_ST_NONFINITE;                     \
            *res = NAN;                                                                            \
            free(y);                                                                               \
            return st;                                                                             \
        }                                                                                          \
        for (int j = 0; j < n; j++)                                                                \
            for (int i = 0; i < n; i++) {                                                          \
                y[(size_t)j * n + i] = (T)((double)a[(size_t)j * lda + i] / c);                    \
                z[(size_t)j * n + i] = i == j ? 1 : 0;                                             \
            }                                                                                      \
        double prev = INFINITY;                                                                    \
        for (int k = 0;; k++) {                                                                    \
            GEMM(CblasColMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1, z, n, y, n, 0, w, n);      \
            const double r = ident_resid_##SUF(n, w);                                              \
            if (!isfinite(r)) {                                                                    \
                st = TRN_SOLVER_ST_NONFINITE;                                                      \
                break;                                                                             \
            }                                                                                      \
            if (r <= d->tol) {                                                                     \
                st = TRN_SOLVER_ST_CONVERGED;                                                      \
                break;                                                                             \
            }                                                                                      \
            /* In the quadratic phase each step squares r; a step that does                        \
             * not halve it has reached the rounding floor. */                                     \
            if (k == d->max_iters || (r < 1e-2 && r > 0.5 * prev))                                 \
                break;                                                                             \
            prev = r;                                                                              \
            for (size_t i = 0; i < nn; i++)                                                        \
                t[i] = (T)(-0.5) * w[i];                                                           \
            for (int i = 0; i < n; i++)                                                            \
                t[(size_t)i * n + i] += (T)1.5;                                                    \
            GEMM(CblasColMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1, y, n, t, n, 0, w, n);      \
            memcpy(y, w, nn * sizeof(T));                                                          \
            GEMM(CblasColMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1, t, n, z, n, 0, w, n);      \
            memcpy(z, w, nn * sizeof(T));                                                          \
            *iters = k + 1;                                                                        \
        }                                                                                          \
        /* X = Z / sqrt(c), and its residual ||I - X A X||_F / sqrt(n). */                         \
        T *x = d->x;                                                                               \
        const double sc = 1.0 / sqrt(c);                                                           \
        for (int j = 0; j < n; j++)                                                                \
            for (int i = 0; i < n; i++)                                                            \
                x[(size_t)j * d->ldx + i] = (T)((double)z[(size_t)j * n + i] * sc);                \
        GEMM(CblasColMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1, a, lda, x, d->ldx, 0, w, n);   \
        GEMM(CblasColMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1, x, d->ldx, w, n, 0, t, n);     \
        *res = ident_resid_##SUF(n, t);                                                            \
        if (!isfinite(*res))                                                                       \
            st = TRN_SOLVER_ST_NONFINITE;                                                          \
        free(y);                                                                                   \
        return st;                                                                                 \
    }
INV_SQRT(s, float, cblas_sgemm)
INV_SQRT(d, double, cblas_dgemm)

/* ---- mixed-precision refinement ----------------------------------------------------- */

/* ||A||_inf of the n x n matrix, or of the symmetric matrix whose `lower`
 * (or upper) triangle is stored when sym is set, into *out. Returns 0, or
 * NOMEM (posted to msg). */
static int norm_inf(int n, const double *a, int lda, int sym, int lower, trn_kmsg *msg,
                    double *out) {
    double best = 0.0;
    double *row = calloc((size_t)(n > 0 ? n : 1), sizeof(double));
    if (!row) {
        trn_kmsg_no_memory(msg, 0, (size_t)(n > 0 ? n : 1) * sizeof(double),
                           "the row sums of ||A||_inf (n %d)", n);
        return NOMEM;
    }
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
            if (sym && (lower ? i < j : i > j))
                continue;
            const double v = fabs(a[(size_t)j * lda + i]);
            row[i] += v;
            if (sym && i != j)
                row[j] += v;
        }
    for (int i = 0; i < n; i++)
        best = row[i] > best || isnan(row[i]) ? row[i] : best;
    free(row);
    *out = best;
    return 0;
}

static double vec_inf(int n, const double *x) {
    double m = 0.0;
    for (int i = 0; i < n; i++)
        m = fabs(x[i]) > m || isnan(x[i]) ? fabs(x[i]) : m;
    return m;
}

/* max_j eta_j for the residual R = B - A X (n x nrhs, leading dimension n). */
static double backward_error(int n, int nrhs, double anorm, const double *r, const double *x,
                             int ldx, const double *b, int ldb) {
    double eta = 0.0;
    for (int j = 0; j < nrhs; j++) {
        const double num = vec_inf(n, r + (size_t)j * n);
        const double den =
            anorm * vec_inf(n, x + (size_t)j * ldx) + vec_inf(n, b + (size_t)j * ldb);
        const double e = den > 0.0 ? num / den : (num > 0.0 ? INFINITY : 0.0);
        eta = e > eta || isnan(e) ? e : eta;
    }
    return eta;
}

/* Converts the n x cols double matrix to float (leading dimension n), or
 * returns -1 when an entry does not fit. Only the `lower` / upper triangle
 * when tri is set. */
static int to_float(int n, int cols, const double *a, int lda, float *out, int tri, int lower) {
    for (int j = 0; j < cols; j++)
        for (int i = 0; i < n; i++) {
            if (tri && (lower ? i < j : i > j)) {
                out[(size_t)j * n + i] = 0.0f;
                continue;
            }
            const double v = a[(size_t)j * lda + i];
            if (!(fabs(v) <= FLT_MAX))
                return -1;
            out[(size_t)j * n + i] = (float)v;
        }
    return 0;
}

/* R = B - A X with A symmetric (triangle `lower`) or general. */
static void residual(int n, int nrhs, const double *a, int lda, int sym, int lower, const double *b,
                     int ldb, const double *x, int ldx, double *r) {
    trn_solver_copy(n, nrhs, sizeof(double), b, ldb, r, n);
    if (sym)
        TRN_LIB(cblas_dsymm)
    (CblasColMajor, CblasLeft, lower ? CblasLower : CblasUpper, n, nrhs, -1.0, a, lda, x, ldx, 1.0,
     r, n);
    else TRN_LIB(cblas_dgemm)(CblasColMajor, CblasNoTrans, CblasNoTrans, n, nrhs, n, -1.0, a, lda,
                              x, ldx, 1.0, r, n);
}

/* The FP64 fallback: X from a Cholesky (sym) or LU factorisation of A in
 * double. Returns LAPACK's info (> 0: not positive definite / singular) or
 * NOMEM (posted to msg). */
static int fallback(const trn_solver_refine_desc *d, int sym, trn_kmsg *msg) {
    const int n = d->n;
    double *f = trn_solver_alloc((size_t)n * (size_t)n, sizeof(double));
    lapack_int *piv = sym ? NULL : trn_solver_alloc((size_t)n, sizeof(lapack_int));
    if (!f || (!sym && !piv)) {
        free(f);
        free(piv);
        trn_kmsg_no_memory(msg, 0,
                           (size_t)n * (size_t)n * sizeof(double) +
                               (sym ? 0 : (size_t)n * sizeof(lapack_int)),
                           "the FP64 fallback factorisation (n %d)", n);
        return NOMEM;
    }
    trn_solver_copy(n, n, sizeof(double), d->a, d->lda, f, n);
    const char uplo = d->lower ? 'L' : 'U';
    lapack_int info = sym ? TRN_LIB(LAPACKE_dpotrf_work)(COL, uplo, n, f, n)
                          : TRN_LIB(LAPACKE_dgetrf_work)(COL, n, n, f, n, piv);
    if (info == 0) {
        double *x = d->x;
        trn_solver_copy(n, d->nrhs, sizeof(double), d->b, d->ldb, x, d->ldx);
        info = sym ? TRN_LIB(LAPACKE_dpotrs_work)(COL, uplo, n, d->nrhs, f, n, x, d->ldx)
                   : TRN_LIB(LAPACKE_dgetrs_work)(COL, 'N', n, d->nrhs, f, n, piv, x, d->ldx);
    }
    free(f);
    free(piv);
    return (int)info;
}

/* The fallback's end: X from the FP64 factorisation and the backward
 * error of every column (r: n doubles of scratch). info > 0 (A not
 * positive definite / singular) leaves eta NaN. Returns the status. */
static int fall_back(const trn_solver_refine_desc *d, int sym, double anorm, double *r, double *eta,
                     trn_kmsg *msg) {
    const int info = fallback(d, sym, msg);
    if (info == NOMEM)
        return NOMEM;
    *eta = 0.0;
    if (info != 0) {
        trn_solver_put_info(d->info, info);
        *eta = NAN;
        return TRN_SOLVER_ST_FALLBACK;
    }
    for (int j = 0; j < d->nrhs; j++) {
        const double *bj = (const double *)d->b + (size_t)j * d->ldb;
        const double *xj = (const double *)d->x + (size_t)j * d->ldx;
        residual(d->n, 1, d->a, d->lda, sym, d->lower, bj, d->n, xj, d->n, r);
        const double e = backward_error(d->n, 1, anorm, r, xj, d->n, bj, d->n);
        *eta = e > *eta || isnan(e) ? e : *eta;
    }
    return TRN_SOLVER_ST_FALLBACK;
}

/* What both refinements start with: the results zeroed, info 0; 1 when
 * there is nothing to solve. */
static int refine_begin(const trn_solver_refine_desc *d, int *iters, double *eta) {
    *iters = 0;
    *eta = 0.0;
    trn_solver_put_info(d->info, 0);
    return d->n == 0 || d->nrhs == 0;
}

/* solveSpd: returns the status, or NOMEM (posted to msg). */
static int solve_spd(const trn_solver_refine_desc *d, trn_kmsg *msg, int *iters, double *eta) {
    const int n = d->n, nrhs = d->nrhs;
    const char uplo = d->lower ? 'L' : 'U';
    const double *a = d->a, *b = d->b;
    double *x = d->x;
    if (refine_begin(d, iters, eta))
        return TRN_SOLVER_ST_CONVERGED;
    float *a32 = trn_solver_alloc((size_t)n * (size_t)n, sizeof(float));
    float *r32 = trn_solver_alloc((size_t)n * (size_t)nrhs, sizeof(float));
    double *r = trn_solver_alloc((size_t)n * (size_t)nrhs, sizeof(double));
    int st = TRN_SOLVER_ST_FALLBACK;
    double anorm = 0.0;
    if (!a32 || !r32 || !r) {
        trn_kmsg_no_memory(msg, 0,
                           (size_t)n * (size_t)n * sizeof(float) +
                               (size_t)n * (size_t)nrhs * (sizeof(float) + sizeof(double)),
                           "the FP32 factor and residuals of solveSpd (n %d, nrhs %d)", n, nrhs);
        st = NOMEM;
        goto out;
    }
    if (norm_inf(n, a, d->lda, 1, d->lower, msg, &anorm) != 0) {
        st = NOMEM;
        goto out;
    }
    if (to_float(n, n, a, d->lda, a32, 1, d->lower) != 0 ||
        TRN_LIB(LAPACKE_spotrf_work)(COL, uplo, n, a32, n) != 0 ||
        to_float(n, nrhs, b, d->ldb, r32, 0, 0) != 0)
        goto fall;
    TRN_LIB(LAPACKE_spotrs_work)(COL, uplo, n, nrhs, a32, n, r32, n);
    for (int j = 0; j < nrhs; j++)
        for (int i = 0; i < n; i++)
            x[(size_t)j * d->ldx + i] = r32[(size_t)j * n + i];
    for (int it = 0;; it++) {
        residual(n, nrhs, a, d->lda, 1, d->lower, b, d->ldb, x, d->ldx, r);
        *eta = backward_error(n, nrhs, anorm, r, x, d->ldx, b, d->ldb);
        if (*eta <= d->tol) {
            st = TRN_SOLVER_ST_CONVERGED;
            goto out;
        }
        if (it == d->max_iters || !isfinite(*eta) || to_float(n, nrhs, r, n, r32, 0, 0) != 0)
            goto fall;
        TRN_LIB(LAPACKE_spotrs_work)(COL, uplo, n, nrhs, a32, n, r32, n);
        for (int j = 0; j < nrhs; j++)
            for (int i = 0; i < n; i++)
                x[(size_t)j * d->ldx + i] += r32[(size_t)j * n + i];
        *iters = it + 1;
    }
fall:
    st = fall_back(d, 1, anorm, r, eta, msg);
out:
    free(a32);
    free(r32);
    free(r);
    return st;
}

/* The GMRES preconditioner of gmresIr: z = (P L U)^-1 r with the FP32 LU
 * factors held in double (exactly). */
typedef struct lu_prec {
    int n;
    const double *lu;
    const lapack_int *piv;
} lu_prec;

static void lu_apply(const void *ctx, const double *r, double *z) {
    const lu_prec *p = ctx;
    memcpy(z, r, (size_t)p->n * sizeof(double));
    TRN_LIB(LAPACKE_dgetrs_work)(COL, 'N', p->n, 1, p->lu, p->n, p->piv, z, p->n);
}

#define GMRES_IR_INNER_TOL 1e-6

static int gmres_ir(const trn_solver_refine_desc *d, trn_kmsg *msg, int *iters, double *eta) {
    const int n = d->n, nrhs = d->nrhs;
    const double *a = d->a, *b = d->b;
    double *x = d->x;
    if (refine_begin(d, iters, eta))
        return TRN_SOLVER_ST_CONVERGED;
    float *a32 = trn_solver_alloc((size_t)n * (size_t)n, sizeof(float));
    double *lu = trn_solver_alloc((size_t)n * (size_t)n, sizeof(double));
    lapack_int *piv = trn_solver_alloc((size_t)n, sizeof(lapack_int));
    double *r = trn_solver_alloc((size_t)n * 2, sizeof(double));
    int st = TRN_SOLVER_ST_FALLBACK;
    double anorm = 0.0;
    if (!a32 || !lu || !piv || !r) {
        trn_kmsg_no_memory(msg, 0,
                           (size_t)n * (size_t)n * (sizeof(float) + sizeof(double)) +
                               (size_t)n * (sizeof(lapack_int) + 2 * sizeof(double)),
                           "the FP32 LU factors of gmresIr (n %d)", n);
        st = NOMEM;
        goto out;
    }
    double *dx = r + n;
    if (norm_inf(n, a, d->lda, 0, 0, msg, &anorm) != 0) {
        st = NOMEM;
        goto out;
    }
    if (to_float(n, n, a, d->lda, a32, 0, 0) != 0 ||
        TRN_LIB(LAPACKE_sgetrf_work)(COL, n, n, a32, n, piv) != 0)
        goto fall;
    for (size_t i = 0; i < (size_t)n * (size_t)n; i++)
        lu[i] = a32[i];
    const trn_linop op = {.kind = TRN_LINOP_DENSE, .n = n, .a = a, .lda = d->lda};
    const trn_kop kop = {&op, NULL};
    const lu_prec pc = {n, lu, piv};
    const trn_kry_d k = {n, trn_linop_apply_d, &kop, lu_apply, &pc, NULL, msg};
    double worst = 0.0;
    int most = 0;
    for (int j = 0; j < nrhs; j++) {
        const double *bj = b + (size_t)j * d->ldb;
        double *xj = x + (size_t)j * d->ldx;
        lu_apply(&pc, bj, xj);
        double e = 0.0;
        for (int it = 0;; it++) {
            residual(n, 1, a, d->lda, 0, 0, bj, n, xj, n, r);
            e = backward_error(n, 1, anorm, r, xj, n, bj, n);
            if (e <= d->tol)
                break;
            if (it == d->max_iters || !isfinite(e))
                goto fall;
            int inner = 0;
            double rel = 0.0;
            memset(dx, 0, (size_t)n * sizeof(double));
            if (trn_gmres_d(&k, r, dx, GMRES_IR_INNER_TOL, d->restart, d->restart, &inner, &rel) <
                0) {
                st = NOMEM;
                goto out;
            }
            for (int i = 0; i < n; i++)
                xj[i] += dx[i];
            if (it + 1 > most)
                most = it + 1;
        }
        worst = e > worst ? e : worst;
    }
    *iters = most;
    *eta = worst;
    st = TRN_SOLVER_ST_CONVERGED;
    goto out;
fall:
    st = fall_back(d, 0, anorm, r, eta, msg);
out:
    free(a32);
    free(lu);
    free(piv);
    free(r);
    return st;
}

trn_kstatus trn_cpu_solver_refine(const trn_solver_refine_desc *d, trn_kmsg *msg, int shard,
                                  int nshards) {
    (void)shard;
    (void)nshards;
    int iters = 0, st;
    double res = 0.0;
    switch (d->fn) {
    case TRN_SOLVER_INV_SQRT_SPD:
        st = d->type == TRN_DTYPE_R32F ? inv_sqrt_s(d, msg, &iters, &res)
                                       : inv_sqrt_d(d, msg, &iters, &res);
        break;
    case TRN_SOLVER_SOLVE_SPD_IR: st = solve_spd(d, msg, &iters, &res); break;
    case TRN_SOLVER_GMRES_IR: st = gmres_ir(d, msg, &iters, &res); break;
    case TRN_SOLVER_IRS_GESV: return trn_cpu_irs_gesv(d, msg); /* solver_irs.c */
    case TRN_SOLVER_IRS_GELS: return trn_cpu_irs_gels(d, msg);
    default: return TRN_KSTATUS_UNSUPPORTED;
    }
    if (st == NOMEM) /* posted where the allocation failed */
        return TRN_KSTATUS_NO_MEMORY;
    trn_solver_put_stats(d->stats, iters, st, res);
    return TRN_KSTATUS_OK;
}

/* The backend's entries (cpu_kernels.h). */
TRN_CPU_ENTRY(solver_refine, trn_cpu_solver_refine(&op->u.solver_refine, op->kmsg, shard, nshards))
