/*
 * poisson.h — the 2D Poisson matrix the Krylov benchmarks solve (the 5-point
 * Laplacian on a g x g interior grid, natural ordering, CSR with 64-bit row
 * offsets and 32-bit columns, 4 on the diagonal and -1 off it), its dump
 * for the scipy side, and the true residual in long double.
 */
#ifndef TRN_BENCH_POISSON_H
#define TRN_BENCH_POISSON_H

#include <stddef.h>
#include <stdint.h>

typedef struct bench_csr {
    int n;
    int64_t nnz;
    int64_t *rowptr;
    int32_t *col;
    double *val;
} bench_csr;

/* The g x g grid's matrix (n = g^2); exits on out of memory. */
bench_csr bench_poisson(int g);
void bench_csr_free(bench_csr *a);

/* Writes bytes at p to DIR/poisson.EXT (exits when it cannot). */
void bench_poisson_dump(const char *dir, const char *ext, const void *p, size_t bytes);

/* ||b - A x||_2 / ||b||_2, accumulated in long double. */
long double bench_true_residual(const bench_csr *a, const double *b, const double *x);

#endif
