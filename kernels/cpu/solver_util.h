/*
 * solver_util.h — what the trnsolver kernels (kernels/cpu/solver_*.c) share:
 * accurate inner products, the iteration record, workspace allocation and
 * BLAS calls dispatched on the element type. Internal to kernels/cpu/.
 *
 * Inner products of the iterative solvers are accumulated so that their
 * rounding error does not grow with n: float vectors in double (a product of
 * two floats is exact in double), double vectors with the compensated Dot2
 * algorithm of Ogita, Rump and Oishi (as accurate as twice the working
 * precision, then rounded).
 */
#ifndef TRN_KERNELS_CPU_SOLVER_UTIL_H
#define TRN_KERNELS_CPU_SOLVER_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "ops/op.h"

/* x . y accumulated in double (exact products, n u_d relative sum error). */
double trn_sdot_acc(int n, const float *x, const float *y);

/* The same dots taken in pieces, so that a loop can accumulate a dot of
 * what it just wrote while it is in cache: init to zero ({0}), add the
 * pieces in order, finish. Every piece but the last must have a length
 * that is a multiple of 4; the result is then bitwise the one-call dot's. */
typedef struct trn_sacc {
    double s[4];
} trn_sacc;
void trn_sacc_add(trn_sacc *a, int n, const float *x, const float *y);
double trn_sacc_finish(const trn_sacc *a);
typedef struct trn_dacc {
    double s[4], c[4];
} trn_dacc;
void trn_dacc_add(trn_dacc *a, int n, const double *x, const double *y);
double trn_dacc_finish(const trn_dacc *a);
/* x . y by Dot2: |error| <= u |x.y| + gamma_n^2 sum |x_i y_i|. */
double trn_ddot_acc(int n, const double *x, const double *y);
/* ||x||_2 from the accurate dot (no scaling: entries beyond ~1e154 overflow). */
double trn_snrm2_acc(int n, const float *x);
double trn_dnrm2_acc(int n, const double *x);

/* Bytes rounded up to a multiple of 64 (a cache line): the pieces of a
 * workspace start on lines of their own. */
static inline size_t trn_solver_ws_align(size_t bytes) {
    return (bytes + 63) & ~(size_t)63;
}

/* Stores v at info, a device int32 that may be unaligned. */
static inline void trn_solver_put_info(void *info, int32_t v) {
    memcpy(info, &v, sizeof(v));
}

/* Writes the iteration record (no-op when stats is NULL). */
void trn_solver_put_stats(trn_solver_stats *stats, int iterations, int status, double residual);

/* count * size bytes from malloc, or NULL (also on overflow or count 0 with
 * size 0: a 1-byte block is returned for empty requests so that NULL always
 * means failure). */
void *trn_solver_alloc(size_t count, size_t size);

/* LAPACK workspace of the calling worker thread, reused from op to op.
 * Fresh memory costs a page fault per 4 KiB page on first touch, and on
 * virtual machines like the one this was measured on a fault costs ~50 us:
 * a fresh 17 MB dsyevd workspace (n = 1024) took ~200 ms of a 400 ms
 * call. So each worker keeps one workspace of up to TRN_SOLVER_WS_KEEP
 * bytes between ops (grown on demand, freed when the thread exits);
 * larger requests get memory of their own, advised to use transparent
 * huge pages (about 10x fewer faults), returned by trn_solver_ws_put.
 * One workspace at a time per thread: the kernels take it at their top
 * level only, and helpers they call allocate with trn_solver_alloc.
 * Returns NULL when no memory can be had. */
#define TRN_SOLVER_WS_KEEP ((size_t)64 << 20)
void *trn_solver_ws_get(size_t bytes);
void trn_solver_ws_put(void *p, size_t bytes);

/* Whether the column-major rows x cols matrix (es-byte elements of the real
 * or complex type t) holds a NaN or an infinity. */
int trn_solver_nonfinite(trn_dtype t, int rows, int cols, const void *a, int ld);

/* cuSOLVER's IRS gesv and gels (solver_irs.c), run by the solver_refine kind's
 * kernel. */
trn_kstatus trn_cpu_irs_gesv(const trn_solver_refine_desc *d, trn_kmsg *msg);
trn_kstatus trn_cpu_irs_gels(const trn_solver_refine_desc *d, trn_kmsg *msg);

/* Copies a rows x cols column-major matrix of element size es. */
void trn_solver_copy(int rows, int cols, size_t es, const void *src, int lds, void *dst, int ldd);

/* Copies the lower (or upper) triangle of an n x n matrix, diagonal
 * included; with `zero`, the other triangle of dst is set to 0. */
void trn_solver_copy_triangle(int lower, int n, size_t es, const void *src, int lds, void *dst,
                              int ldd, int zero);

/* Private copies of client matrices for LAPACK. Two reasons to run LAPACK
 * on a copy rather than on the client's memory:
 *  - Debian's OpenBLAS 0.3.21 complex kernels read past the matrices they
 *    are given: zdotc on strided rows (lauum, so potri upper), zhemv upper
 *    (hetrd, so heevd and hegvd), and gebrd's path in gesvd, by up to one
 *    column. On a client's buffer that read faults when the matrix ends at
 *    the end of its mapping (tests/unit/test_kernel_bounds.c);
 *  - on the local transport the client can rewrite its shared memory while
 *    the op runs, and QR iterations do not terminate on an infinity, so the
 *    finiteness check must be made on the memory LAPACK reads.
 * A copy's leading dimension is trn_solver_priv_ld(rows): rows, or rows + 8
 * when rows is a multiple of 64. With a leading dimension of 512 or 1024
 * doubles every element of a row falls in the same L1 set, and LAPACK's
 * row-wise loops slow down by an order of magnitude (dlasr 'L', the
 * rotations bdsqr applies to gesvd's VT: 11.2 ms at 1024 x 1024 against
 * 0.87 ms with 1032, docs/benchmarks.md "trnsolver"); the arithmetic is
 * the same whatever the leading dimension, so results are unchanged. The
 * copy is followed by slack of one column and 256 bytes, which absorbs
 * the complex kernels' reads past its end.
 * trn_solver_priv_bytes is its size in bytes, a multiple of 64, so copies
 * can be laid out one after another in one workspace. */
int trn_solver_priv_ld(int rows);
size_t trn_solver_priv_bytes(trn_dtype t, int rows, int cols);

/* Component c (0 real, 1 imaginary) of element k of an array of type t,
 * widened to double, and its assignment (rounded to t). */
double trn_solver_comp(trn_dtype t, const void *p, size_t k, int c);
void trn_solver_set_comp(trn_dtype t, void *p, size_t k, int c, double v);

#endif
