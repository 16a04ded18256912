/*
 * solver_kpar.h — a Krylov solve run over every core: one big CG cut into
 * steps whose tasks the scheduler spreads over the cores, the op staying
 * one op to its client (daemon/service_krylov.c builds the sequence,
 * kernels/<backend>/ run the steps).
 *
 * The sequence: step 0, SETUP (one task): the operator's checked copy (a
 * sparse one; solver_csr.c's rules and messages), the Jacobi diagonal,
 * ||b||, into the op's scratch memory. Then APPLY and UPDATE repeat as a
 * loop (trn_sched_op.loop_first/loop_last) until UPDATE ends it with
 * TRN_KSTATUS_SEQ_DONE:
 *   APPLY   per row block: w = A z, then p = z + beta p and q = w + beta q
 *           (q = A p without a second product, as A p = A z + beta A p_old),
 *           and the block's partial p . q; or, when the solve must look at
 *           its true residual, r = b - A x and the block's partial r . r.
 *   UPDATE  per row block: x += alpha p, r -= alpha q, z = M^-1 r, and the
 *           block's partials r . r and r . z; or, after a true residual,
 *           the decision (converged, out of iterations, or residual
 *           replacement and on).
 * Every scalar a step needs (alpha, beta, the residual norm, the decision)
 * is recomputed by each of its tasks from the previous step's per-block
 * partials, summed in block order, so all tasks agree without talking.
 *
 * Why a loop in the scheduler rather than maxiter pre-built steps: the
 * number of iterations is known only as the solve runs, and max_iters may
 * be large (each iteration would need two step records); the loop needs
 * two records and one status (TRN_KSTATUS_SEQ_DONE) whatever the count.
 *
 * Determinism: the row blocks have a size that depends only on n
 * (trn_kpar_block), never on the core count; each task owns whole blocks;
 * every per-block partial is accumulated the same way wherever its block
 * runs, and every reduction sums the partials in block order. So x, the
 * iteration count and the residual are bitwise the same for any number of
 * shards. (They may differ in the last bits from the one-kernel CG, which
 * takes its dot products over the whole vector and A p directly, and from
 * the one-kernel BiCGStab, whose dots are whole-vector.)
 *
 * BiCGStab (van der Vorst, right preconditioned, as the one-kernel solve)
 * is cut the same way into a SETUP step and five looped steps, each one
 * pass over the row blocks, because each of its two products needs a
 * vector that the step before it finished (a product's tasks read all of
 * it) and each of its scalars needs a reduction of the step before:
 *   DIR     p = r + beta (p - omega v) and p^ = M^-1 p (beta from the
 *           partials r^ . r of UPDATE);
 *   APPLY   v = A p^ and the partials r^ . v;
 *   HALF    s = r - alpha v (alpha = rho / r^ . v) and s^ = M^-1 s, and
 *           the partials s . s;
 *   APPLY   t = A s^ and the partials t . t, t . s; or, when ||s|| meets
 *           the tolerance, x += alpha p^;
 *   UPDATE  x += alpha p^ + omega s^, r = s - omega t (omega = t.s / t.t)
 *           and the partials r^ . r, r . r.
 * Any step that needs the true residual (the start, a convergence the
 * recurrence claims, a breakdown, the iteration limit) computes r = b - A x
 * itself when x is complete (else the next step does), and the step after
 * it decides: the end, or a restart from the true residual (r^ = r) that
 * goes on at the next DIR. The two APPLY steps share a fn; a step's place
 * in the loop is krylov_step.
 *
 * GMRES(m) (right preconditioned, as the one-kernel solve) is a SETUP step
 * and two looped steps of one fn, TRN_SOLVER_KGM_STEP: what a step does
 * next is in the state the step before left, as the Arnoldi process needs
 * two or three passes over the row blocks per column and a restart two
 * more. Its Gram-Schmidt is classical, with a second pass when the first
 * lost more than half of the vector's norm (Daniel, Gragg, Kaufman and
 * Stewart's criterion; "twice is enough"), so that each pass is one sweep
 * over the blocks with one reduction of j + 1 dots, where the one-kernel
 * solve's modified Gram-Schmidt needs j + 1 reductions in turn:
 *   PROD    the column j - 1 of the Hessenberg matrix completed (its norm
 *           from the partials, the rotations, |g_j|), v_j normalised, and
 *           then either v_{j+1} = A z_j / h_{j,j-1} with the partials
 *           v_i . v_{j+1} (i <= j) and ||v_{j+1}||^2, or, at the end of a
 *           cycle, x += M^-1 V y;
 *   PASS1   v_{j+1} -= V h (h from the partials); then, when the criterion
 *           asks for it, the partials of the second pass (PASS2 follows:
 *           the same again), else z_{j+1} = M^-1 v_{j+1} and the partials
 *           of its norm (PROD follows);
 *   RES     r = b - A x into v_0 and its partials, at the start and after
 *           each cycle;
 *   DECIDE  the one-kernel solve's decision (converged, the limit, an
 *           invariant space that holds no better x: breakdown), or the
 *           next cycle: v_0 = r / ||r||, z_0 = M^-1 v_0.
 * The basis has at most TRN_KGM_MAX_RESTART + 1 vectors here; a larger
 * restart runs as one kernel.
 *
 * Which solves: CG, BiCGStab or GMRES with no or the Jacobi
 * preconditioner, R32F or R64F, a dense, CSR or BSR operator whose stored
 * elements reach TRN_KPAR_MIN_ELEMS (why that value: docs/benchmarks.md,
 * "One big CG on every core"). Block-Jacobi and SSOR (its triangular
 * sweeps are sequential) run as one kernel on one core, as before.
 *
 * Backend-neutral: descriptors and sizes; the layout of the state inside
 * the scratch header is the kernel's.
 */
#ifndef TRN_OPS_SOLVER_KPAR_H
#define TRN_OPS_SOLVER_KPAR_H

#include <stddef.h>
#include <stdint.h>

#include "ops/solver.h"

/* Stored operator elements (nnz rb cb, or n^2 dense) from which a CG is
 * run over every core. */
#define TRN_KPAR_MIN_ELEMS ((int64_t)1 << 19)

/* The sequence: SETUP, then APPLY and UPDATE looped. */
#define TRN_KPAR_STEPS 3
#define TRN_KPAR_LOOP_FIRST 1
#define TRN_KPAR_LOOP_LAST 2

/* A BiCGStab's: SETUP, then DIR, APPLY, HALF, APPLY, UPDATE looped. */
#define TRN_KBI_STEPS 6
#define TRN_KBI_LOOP_FIRST 1
#define TRN_KBI_LOOP_LAST 5

/* A GMRES's: SETUP, then two looped steps (any of PROD, PASS1, PASS2,
 * RES, DECIDE each). */
#define TRN_KGM_STEPS 3
#define TRN_KGM_LOOP_FIRST 1
#define TRN_KGM_LOOP_LAST 2
/* The largest restart run over every core. */
#define TRN_KGM_MAX_RESTART 128

/* The most steps of any sequence. */
#define TRN_KPAR_MAX_STEPS 6

/* Bytes at the start of the scratch for the solve's state (the kernel's). */
#define TRN_KPAR_HEADER 4096

/* Whether fn is one of the steps (never on the wire). */
int trn_kpar_fn(trn_solver_fn fn);

/* Whether fn is one of a BiCGStab's steps, or BiCGStab itself. */
int trn_kpar_bicg(trn_solver_fn fn);

/* Whether fn is one of a GMRES's steps, or GMRES itself. */
int trn_kpar_gmres(trn_solver_fn fn);

/* Whether the validated solve d runs as steps over the cores. */
int trn_kpar_eligible(const trn_solver_krylov_desc *d);

/* The steps of an eligible d's sequence, and the first and last looped. */
int trn_kpar_nsteps(const trn_solver_krylov_desc *d);
int trn_kpar_loop_first(const trn_solver_krylov_desc *d);
int trn_kpar_loop_last(const trn_solver_krylov_desc *d);

/* The rows of a block for an n-row solve: a multiple of 512 between 512
 * and 8192 (about n / 64), a function of n alone. */
int64_t trn_kpar_block(int64_t n);
/* The number of row blocks, ceil(n / trn_kpar_block(n)). */
int64_t trn_kpar_nblocks(int64_t n);
/* The blocks [lo, hi) shard `shard` of nshards owns: contiguous runs. */
void trn_kpar_shard_blocks(int64_t nblk, int shard, int nshards, int64_t *lo, int64_t *hi);

/* Where things are in the scratch: byte offsets, each 64-byte aligned. */
typedef struct trn_kpar_layout {
    int64_t nblk;
    size_t pq, rr, rt, rz; /* per-block partials (doubles, nblk each) */
    size_t r, z, p, q;     /* vectors of n elements of the type (z = r
                              without a preconditioner) */
    /* BiCGStab (0 for CG; pq, rz, z and q are unused): per-block partials
     * of r^ . r (rho), r^ . v, s . s, t . t, t . s, and a second array for
     * the true residual's r . r (rt2: two in turn, so that the step that
     * reads one may fill the other); the vectors r^ (r0), v, t, p^ = M^-1 p
     * and s^ = M^-1 s (ph = p and sh = r without a preconditioner). */
    size_t rho, rv, ss, tt, ts, rt2;
    size_t r0, v, t, ph, sh;
    /* GMRES (0 otherwise; r is v_0, z = M^-1 v_j, or a copy of v_j):
     * per-block partials of the first and second Gram-Schmidt passes
     * ((m + 1) x nblk, block fastest), of ||v_{j+1}||^2 before (ww1) and
     * after (ww) them; the Hessenberg columns as the passes give them
     * (hraw) and rotated (rfac), (m + 1) x m each; the rotations (cs, sn:
     * m); g, twice (m + 1: read one, write the other); the basis, m + 1
     * vectors ldv elements apart. */
    size_t h1, h2, ww1, ww, hraw, rfac, cs, sn, g, vb;
    int64_t ldv;
    size_t dinv;           /* Jacobi: 1 / a_ii (n of the type) */
    size_t opx, opx_bytes; /* a sparse operator's checked copy */
    size_t total;
} trn_kpar_layout;

/* The layout of d's scratch (eligible d). Returns 0, or -1 when it would
 * not fit in size_t. */
int trn_kpar_layout_of(const trn_solver_krylov_desc *d, trn_kpar_layout *l);

/* Step s (0 .. trn_kpar_nsteps(whole) - 1) of the solve whole, with its
 * scratch. */
trn_solver_krylov_desc trn_kpar_step(const trn_solver_krylov_desc *whole, int s, void *scratch,
                                     size_t bytes);

/* What a step costs (flops; bytes moved counted as flops, the pace of the
 * dense model) and into how many shards it may split. */
double trn_kpar_step_cost(const trn_solver_krylov_desc *d);
double trn_kpar_step_shards(const trn_solver_krylov_desc *d);

#endif
