/*
 * solver_jacobi.c — trnsolver's Jacobi methods: syevj/heevj (cyclic Jacobi
 * for the Hermitian eigenproblem) and gesvdj (one-sided Jacobi, Hestenes,
 * for the SVD), written here; the per-type code is solver_jacobi_tmpl.h.
 *
 * syevj: A (its uplo triangle, made full) is transformed by plane rotations
 * V^H A V = W + E; a sweep visits every pair (p, q), p < q, once and
 * annihilates a_pq (Rutishauser's formulas, |tan theta| <= 1), in the
 * parallel (round-robin tournament) ordering: n - 1 rounds (n rounded up to
 * even) of n/2 disjoint pairs, whose rotations are applied together, the
 * columns as column operations and the rows column by column, so every
 * memory access walks a column (the row-cyclic ordering's mirrored row
 * updates were strided, and made syevj 30-230x slower than syevd).
 * It stops when ||E||_F <= tol ||A||_F (cuSOLVER's criterion; the residual
 * reported is ||E||_F), or when a sweep finds nothing above the working
 * precision to rotate: a pair is skipped when |a_pq| <= eps sqrt(|a_pp a_qq|)
 * or <= eps ||A||_F / n, which bounds what remains by
 * eps sqrt(n + 1) ||A||_F. Without either within max_sweeps, info = n + 1.
 * Eigenvalues ascend; with jobz = VECTOR, A receives V.
 *
 * gesvdj: the columns b_j of B = A (m >= n) or A^H (m < n) are rotated in
 * pairs until mutually orthogonal, B V = U S; a pair is rotated unless
 * |b_p^H b_q| <= eps ||b_p|| ||b_q||. The residual is the Frobenius norm of
 * the off-diagonal of U^H A V = S + E, sum over pairs of |b_p^H b_q|^2
 * (1/||b_p||^2 + 1/||b_q||^2), measured during the last sweep (cuSOLVER's
 * "internal residual"); it stops when that is <= tol ||A||_F or a sweep
 * rotates nothing; else info = min(m, n) + 1. Singular values descend; U's
 * columns for zero singular values, and the columns of a full (econ = 0) U
 * beyond min(m, n), are an orthonormal completion from a Householder QR.
 *
 * Both finish the accumulated rotations V (eigenvectors; right singular
 * vectors) with one Newton–Schulz step towards the nearest unitary matrix
 * (jac_polish): thousands of rotations per column leave V unitary only to
 * O(sqrt(rotations) u), and the step squares that.
 *
 * Both scale the input by a power of two (exact) so that squared norms
 * cannot overflow or underflow, compute rotation parameters and inner
 * products in double, and run on one core. Non-finite input: info = -4
 * (syevj) or -5 (gesvdj), nothing else written.
 */
#include <complex.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/cpu/cpu_kernels.h"
#include "kernels/cpu/solver_lapack.h"
#include "kernels/cpu/solver_util.h"

#define JAC_NOMEM (-1000)  /* workspace allocation failed (posted to the op's message) */
#define JAC_FAILED (-1001) /* LAPACK refused its arguments (cannot happen after validation) */

typedef struct jac_pair {
    double value;
    int index;
} jac_pair;

/* One rotation of a syevj round: the pair, its cosine, sine, tangent and
 * phase (real and imaginary parts, 1 and 0 for real types), and the 2 x 2
 * problem it solves (diagonal, |a_pq|). */
typedef struct jac_rot {
    int p, q;
    double c, s, t, er, ei;
    double app, aqq, ag;
} jac_rot;

static int jac_ascending(const void *x, const void *y) {
    const jac_pair *a = x, *b = y;
    if (a->value != b->value)
        return a->value < b->value ? -1 : 1;
    return a->index - b->index;
}

static int jac_descending(const void *x, const void *y) {
    return jac_ascending(y, x);
}

/* The power-of-two exponent that brings amax into [0.5, 1), clamped so the
 * scale factor 2^-e stays finite in double. */
static int jac_exponent(double amax) {
    int e = 0;
    if (amax > 0)
        (void)frexp(amax, &e);
    return e < -1000 ? -1000 : e;
}

/* Completes the first k orthonormal columns of the rows x cols matrix q to
 * cols orthonormal columns (columns k .. cols - 1 are overwritten): the
 * Householder QR of the first k columns, whose Q's further columns are
 * orthogonal to them. Returns 0, JAC_NOMEM (posted to msg) or JAC_FAILED. */
static int jac_complete(trn_dtype t, int rows, int k, int cols, void *q, int ldq, trn_kmsg *msg) {
    const size_t es = trn_dtype_size(t);
    void *w = trn_solver_alloc((size_t)rows * (size_t)cols, es);
    void *tau = trn_solver_alloc((size_t)(k > 0 ? k : 1), es);
    trn_lapack_query qq;
    memset(&qq, 0, sizeof(qq));
    void *work = NULL;
    int rc = JAC_FAILED;
    if (!w || !tau) {
        trn_kmsg_no_memory(msg, 0, ((size_t)rows * (size_t)cols + (size_t)(k > 0 ? k : 1)) * es,
                           "the QR that completes U (%d x %d)", rows, cols);
        rc = JAC_NOMEM;
        goto out;
    }
    trn_solver_copy(rows, k, es, q, ldq, w, rows);
    lapack_int lw1, lw2;
    if (TRN_LAPACK4(t, geqrf_work, LAPACK_COL_MAJOR, rows, k, w, rows, tau, (void *)&qq, -1) != 0)
        goto out;
    lw1 = trn_lapack_lwork(t, &qq);
    if (TRN_BY_TYPE(
            t, LAPACKE_sorgqr_work(LAPACK_COL_MAJOR, rows, cols, k, w, rows, tau, (void *)&qq, -1),
            LAPACKE_dorgqr_work(LAPACK_COL_MAJOR, rows, cols, k, w, rows, tau, (void *)&qq, -1),
            LAPACKE_cungqr_work(LAPACK_COL_MAJOR, rows, cols, k, w, rows, tau, (void *)&qq, -1),
            LAPACKE_zungqr_work(LAPACK_COL_MAJOR, rows, cols, k, w, rows, tau, (void *)&qq, -1)) !=
        0)
        goto out;
    lw2 = trn_lapack_lwork(t, &qq);
    const lapack_int lw = lw1 > lw2 ? lw1 : lw2;
    work = trn_solver_alloc((size_t)lw, es);
    if (!work) {
        trn_kmsg_no_memory(msg, 0, (size_t)lw * es,
                           "the LAPACK workspace that completes U (lwork %d)", (int)lw);
        rc = JAC_NOMEM;
        goto out;
    }
    if (TRN_LAPACK4(t, geqrf_work, LAPACK_COL_MAJOR, rows, k, w, rows, tau, work, lw) != 0)
        goto out;
    if (TRN_BY_TYPE(t, LAPACKE_sorgqr_work(LAPACK_COL_MAJOR, rows, cols, k, w, rows, tau, work, lw),
                    LAPACKE_dorgqr_work(LAPACK_COL_MAJOR, rows, cols, k, w, rows, tau, work, lw),
                    LAPACKE_cungqr_work(LAPACK_COL_MAJOR, rows, cols, k, w, rows, tau, work, lw),
                    LAPACKE_zungqr_work(LAPACK_COL_MAJOR, rows, cols, k, w, rows, tau, work, lw)) !=
        0)
        goto out;
    trn_solver_copy(rows, cols - k, es, (char *)w + (size_t)k * (size_t)rows * es, rows,
                    (char *)q + (size_t)k * (size_t)ldq * es, ldq);
    rc = 0;
out:
    free(w);
    free(tau);
    free(work);
    return rc;
}

/* One Newton–Schulz step towards the nearest unitary matrix (the polar
 * factor) for the accumulated rotations V (n x n, leading dimension n):
 * V <- V (3I - V^H V) / 2. V is unitary to O(sqrt(rotations) u) after
 * thousands of rotations per column; the step squares that departure
 * (||V^H V - I|| = d becomes about 3/4 d^2 + O(n u)), costs two GEMMs, and
 * moves V by O(d), below what the eigenvectors are accurate to. Returns 0,
 * or JAC_NOMEM (posted to msg). */
static int jac_polish(trn_dtype t, int n, void *v, trn_kmsg *msg) {
    if (n < 2)
        return 0;
    const size_t es = trn_dtype_size(t), nn = (size_t)n * (size_t)n;
    char *g = trn_solver_alloc(2 * nn, es);
    if (!g) {
        trn_kmsg_no_memory(msg, 0, 2 * nn * es, "the polishing step of V (2 x %d x %d)", n, n);
        return JAC_NOMEM;
    }
    char *tmp = g + nn * es;
    /* g = -V^H V / 2 + 3/2 I, then tmp = V g, V = tmp. */
    trn_blas_gemm(t, CblasConjTrans, CblasNoTrans, n, n, n, -0.5, v, n, v, n, 0.0, g, n);
    const int cx = t == TRN_DTYPE_C32F || t == TRN_DTYPE_C64F;
    const int single = t == TRN_DTYPE_R32F || t == TRN_DTYPE_C32F;
    for (int i = 0; i < n; i++) {
        const size_t k = ((size_t)i * (size_t)n + (size_t)i) * (cx ? 2 : 1);
        if (single)
            ((float *)g)[k] += 1.5f;
        else
            ((double *)g)[k] += 1.5;
    }
    trn_blas_gemm(t, CblasNoTrans, CblasNoTrans, n, n, n, 1.0, v, n, g, n, 0.0, tmp, n);
    memcpy(v, tmp, nn * es);
    free(g);
    return 0;
}

/* The tournament's next round: player 0 stays, the others move one seat
 * round the table. */
static void jac_advance(int *players, int m) {
    const int last = players[m - 1];
    for (int i = m - 1; i > 1; i--)
        players[i] = players[i - 1];
    if (m > 1)
        players[1] = last;
}

/* The pairs of the current round of the round-robin tournament of m
 * players (m even) for n indices (n = m or m - 1: index m - 1 is then a
 * bye), into pp[i] < qq[i]; then the players move on: player 0 stays, the
 * others move one seat round the table, so m - 1 rounds meet every pair
 * once. Returns the pairs. */
static int jac_round(int *players, int m, int n, int *pp, int *qq) {
    int np = 0;
    for (int i = 0; i < m / 2; i++) {
        const int x = players[i], y = players[m - 1 - i];
        if (x >= n || y >= n)
            continue; /* the bye */
        pp[np] = x < y ? x : y;
        qq[np++] = x < y ? y : x;
    }
    jac_advance(players, m);
    return np;
}

#define JT float
#define JR float
#define JA double
#define JSUF s
#define JCX 0
#define JDT TRN_DTYPE_R32F
#define JEPS FLT_EPSILON
#include "kernels/cpu/solver_jacobi_tmpl.h"

#define JT double
#define JR double
#define JA double
#define JSUF d
#define JCX 0
#define JDT TRN_DTYPE_R64F
#define JEPS DBL_EPSILON
#include "kernels/cpu/solver_jacobi_tmpl.h"

#define JT float complex
#define JR float
#define JA double complex
#define JSUF c
#define JCX 1
#define JDT TRN_DTYPE_C32F
#define JEPS FLT_EPSILON
#include "kernels/cpu/solver_jacobi_tmpl.h"

#define JT double complex
#define JR double
#define JA double complex
#define JSUF z
#define JCX 1
#define JDT TRN_DTYPE_C64F
#define JEPS DBL_EPSILON
#include "kernels/cpu/solver_jacobi_tmpl.h"

trn_kstatus trn_cpu_solver_jacobi(const trn_solver_eigen_desc *d, trn_kmsg *msg) {
    const trn_dtype t = d->type;
    int sweeps = 0, info;
    double residual = 0.0;
    if (d->fn == TRN_SOLVER_SYEVJ) {
        /* Non-finite input: syevj(jobz, uplo, n, A) names A fourth. */
        int bad = 0;
        const size_t es = trn_dtype_size(t);
        for (int j = 0; j < d->n && !bad; j++) {
            const int r0 = d->lower ? j : 0, r1 = d->lower ? d->n : j + 1;
            bad = trn_solver_nonfinite(
                t, r1 - r0, 1, (const char *)d->a + ((size_t)j * (size_t)d->lda + (size_t)r0) * es,
                d->lda);
        }
        info = bad ? -4
                   : TRN_BY_TYPE(t, syevj_s(d, msg, &sweeps, &residual),
                                 syevj_d(d, msg, &sweeps, &residual),
                                 syevj_c(d, msg, &sweeps, &residual),
                                 syevj_z(d, msg, &sweeps, &residual));
    } else {
        info = trn_solver_nonfinite(t, d->m, d->n, d->a, d->lda)
                   ? -5
                   : TRN_BY_TYPE(t, gesvdj_s(d, msg, &sweeps, &residual),
                                 gesvdj_d(d, msg, &sweeps, &residual),
                                 gesvdj_c(d, msg, &sweeps, &residual),
                                 gesvdj_z(d, msg, &sweeps, &residual));
    }
    /* Neither writes info: the op fails (without memory: NO_MEMORY, whose
     * message the allocation that failed posted). */
    if (info == JAC_NOMEM)
        return TRN_KSTATUS_NO_MEMORY;
    if (info == JAC_FAILED)
        return TRN_KSTATUS_FAILED;
    const int32_t i32 = info;
    memcpy(d->info, &i32, sizeof(i32));
    const int p = d->m < d->n ? d->m : d->n;
    const int unconverged = d->fn == TRN_SOLVER_SYEVJ ? d->n + 1 : p + 1;
    trn_solver_put_stats(d->stats, sweeps,
                         info == unconverged ? TRN_SOLVER_ST_MAX_ITERS
                         : info < 0          ? TRN_SOLVER_ST_NONFINITE
                                             : TRN_SOLVER_ST_CONVERGED,
                         residual);
    return TRN_KSTATUS_OK;
}
