/*
 * solver_jacobi.c — trnsolver's Jacobi methods: syevj/heevj (cyclic Jacobi
 * for the Hermitian eigenproblem) and gesvdj (one-sided Jacobi, Hestenes,
 * for the SVD), written here; the per-type code is solver_jacobi_tmpl.h.
 *
 * syevj: A (its uplo triangle, made full) is transformed by plane rotations
 * V^H A V = W + E; a sweep visits every pair (p, q), p < q, once and
 * annihilates a_pq (Rutishauser's formulas, |tan theta| <= 1).
 * It stops when ||E||_F <= tol ||A||_F (cuSOLVER's criterion; the residual
 * reported is ||E||_F), or when a sweep finds nothing above the working
 * precision to rotate: a pair is skipped when |a_pq| <= eps sqrt(|a_pp a_qq|)
 * or <= eps ||A||_F / n, which bounds what remains by
 * eps sqrt(n + 1) ||A||_F. Without either within max_sweeps, info = n + 1.
 * Eigenvalues ascend; with jobz = VECTOR, A receives V. Two ways of
 * running the sweeps, which meet the same pairs per sweep (so sweeps,
 * the stopping rule and max_sweeps mean the same) in different orders:
 *
 * - the scalar method (n < 64): the parallel (round-robin tournament)
 *   ordering, n - 1 rounds (n rounded up to even) of n/2 disjoint pairs,
 *   whose rotations are applied together, the columns as column operations
 *   and the rows column by column, so every memory access walks a column
 *   (the row-cyclic ordering's mirrored row updates were strided, and made
 *   syevj 30-230x slower than syevd). Each rotation streams two rows and
 *   columns of A and two columns of V: ~18n flops at memory speed.
 *
 * - the blocked method (n >= 64; jac_blocks): the indices fall into an
 *   even number of blocks of b (16 below n = 512, 24 below 1536, else 32;
 *   A padded with zero rows and columns to a multiple of b, which no
 *   rotation touches). A sweep is the round-robin tournament of the
 *   blocks: each round pairs them, and each pair of blocks (I, J) is
 *   visited once: its 2b x 2b Hermitian subproblem is copied out and
 *   rotated by the scalar method's rounds (b cross rounds meeting each
 *   (p in I, q in J) once, and in a block's first visit of the sweep the
 *   round-robin of its own pairs first), the rotations accumulated in a
 *   2b x 2b unitary Q; then A <- Q^H A Q and V <- V Q with GEMM for all
 *   the round's pairs. The sweep thus meets every pair (p, q) exactly once,
 *   as a scalar sweep does, and rotates it by the same formulas, so it
 *   takes the same number of sweeps to the same accuracy (measured: 11-12
 *   sweeps at n = 256-1024 either way, and the same LAPACK test ratios).
 *   Only A's lower triangle of pair tiles is kept, the blocks seated so
 *   that each round's pairs sit side by side (slots 2i, 2i + 1), so the
 *   two-sided update is one GEMM down each pair's columns and one along its
 *   rows, half of A each time, then the matrix is re-seated for the next
 *   round (a copy). Per rotation that is ~16n flops at GEMM speed (~40
 *   GFLOP/s on one core here, against ~10 for the rotations), plus the
 *   inner rotations on the 2b x 2b subproblem (~36b flops, in cache).
 *   This is the scalar method with the rotations of b rounds gathered in
 *   small dense factors and applied by GEMM. Diagonalizing each subproblem
 *   fully instead (classical block Jacobi) was measured at n = 256-512: 7-9
 *   sweeps instead of 10-12, but 2-3x the time (the inner sweeps), and
 *   residual ratios of 1-3 instead of 0.1-0.15 (many more rotations per
 *   element). Visits that rotate nothing are copied, not multiplied, so the
 *   last, checking sweep costs no GEMM.
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
 * products in double, and run on one core (GEMMs single-threaded); the
 * blocks depend on n only, so the bits do not depend on the machine's
 * cores. Non-finite input: info = -4 (syevj) or -5 (gesvdj), nothing else
 * written. gesvdj stays unblocked: its blocked form works on Gram matrices
 * B_IJ^H B_IJ, whose rotations are no longer computed from the columns'
 * own inner products (what keeps small singular values accurate).
 */
#include <complex.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/cpu/cpu_kernels.h"
#include "kernels/cpu/routines.h"
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
    if (TRN_BY_TYPE(t,
                    TRN_LIB(LAPACKE_sorgqr_work)(LAPACK_COL_MAJOR, rows, cols, k, w, rows, tau,
                                                 (void *)&qq, -1),
                    TRN_LIB(LAPACKE_dorgqr_work)(LAPACK_COL_MAJOR, rows, cols, k, w, rows, tau,
                                                 (void *)&qq, -1),
                    TRN_LIB(LAPACKE_cungqr_work)(LAPACK_COL_MAJOR, rows, cols, k, w, rows, tau,
                                                 (void *)&qq, -1),
                    TRN_LIB(LAPACKE_zungqr_work)(LAPACK_COL_MAJOR, rows, cols, k, w, rows, tau,
                                                 (void *)&qq, -1)) != 0)
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
    if (TRN_BY_TYPE(
            t,
            TRN_LIB(LAPACKE_sorgqr_work)(LAPACK_COL_MAJOR, rows, cols, k, w, rows, tau, work, lw),
            TRN_LIB(LAPACKE_dorgqr_work)(LAPACK_COL_MAJOR, rows, cols, k, w, rows, tau, work, lw),
            TRN_LIB(LAPACKE_cungqr_work)(LAPACK_COL_MAJOR, rows, cols, k, w, rows, tau, work, lw),
            TRN_LIB(LAPACKE_zungqr_work)(LAPACK_COL_MAJOR, rows, cols, k, w, rows, tau, work,
                                         lw)) != 0)
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
 * moves V by O(d), below what the eigenvectors are accurate to. scratch
 * (2 n^2 elements) may be NULL: the step allocates its own. Returns 0, or
 * JAC_NOMEM (posted to msg). */
static int jac_polish(trn_dtype t, int n, void *v, void *scratch, trn_kmsg *msg) {
    if (n < 2)
        return 0;
    const size_t es = trn_dtype_size(t), nn = (size_t)n * (size_t)n;
    char *g = scratch ? scratch : trn_solver_alloc(2 * nn, es);
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
    if (!scratch)
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

/* The seating of the blocked method's round (m even): pair i of the
 * tournament, players[i] against players[m - 1 - i], sits at slots 2i and
 * 2i + 1; arr[slot] = block, where[block] = slot. */
static void jac_arrange(const int *players, int m, int *arr, int *where) {
    for (int i = 0; i < m / 2; i++) {
        arr[2 * i] = players[i];
        arr[2 * i + 1] = players[m - 1 - i];
    }
    for (int k = 0; k < m; k++)
        where[arr[k]] = k;
}

/* The blocked method's number of blocks for n (even), or 0 for the scalar
 * method: blocks of about b0 indices, b0 growing with n (measured on one
 * core: the inner rotations cost ~36 b flops each against the GEMMs' 16 n,
 * at a quarter of their speed, so small n wants small blocks, and large n
 * larger, fuller GEMMs); the scalar method below four blocks. A function
 * of n only, so the result does not depend on the machine's cores. */
static int jac_blocks(int n) {
    const int b0 = n < 512 ? 16 : n < 1536 ? 24 : 32;
    if (n < 4 * b0)
        return 0;
    return 2 * ((n + 2 * b0 - 1) / (2 * b0));
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
