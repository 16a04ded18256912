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

#include "kernels/op.h"

/* x . y accumulated in double (exact products, n u_d relative sum error). */
double trn_sdot_acc(int n, const float *x, const float *y);
/* x . y by Dot2: |error| <= u |x.y| + gamma_n^2 sum |x_i y_i|. */
double trn_ddot_acc(int n, const double *x, const double *y);
/* ||x||_2 from the accurate dot (no scaling: entries beyond ~1e154 overflow). */
double trn_snrm2_acc(int n, const float *x);
double trn_dnrm2_acc(int n, const double *x);

/* Writes the iteration record (no-op when stats is NULL). */
void trn_solver_put_stats(trn_solver_stats *stats, int iterations, int status, double residual);

/* count * size bytes from malloc, or NULL (also on overflow or count 0 with
 * size 0: a 1-byte block is returned for empty requests so that NULL always
 * means failure). */
void *trn_solver_alloc(size_t count, size_t size);

/* Whether the column-major rows x cols matrix (es-byte elements of the real
 * or complex type t) holds a NaN or an infinity. */
int trn_solver_nonfinite(trn_dtype t, int rows, int cols, const void *a, int ld);

/* Copies a rows x cols column-major matrix of element size es. */
void trn_solver_copy(int rows, int cols, size_t es, const void *src, int lds, void *dst, int ldd);

#endif
