/*
 * refblas_common.h — what the in-tree BLAS kernels (refblas1.c, refblas2.c,
 * refblas3.c) share whatever the element type: argument decoding, the
 * start of a strided vector, and the block sizes that keep operands in
 * cache. Private to kernels/cpu/refblas/.
 */
#ifndef TRN_KERNELS_CPU_REFBLAS_REFBLAS_COMMON_H
#define TRN_KERNELS_CPU_REFBLAS_REFBLAS_COMMON_H

#include <cblas.h>
#include <complex.h>
#include <math.h>
#include <stddef.h>

#define RB_CAT3_(a, b, c) a##b##c
#define RB_CAT3(a, b, c) RB_CAT3_(a, b, c)
#define RB_CAT4_(a, b, c, d) a##b##c##d
#define RB_CAT4(a, b, c, d) RB_CAT4_(a, b, c, d)

/* Elements in a stack buffer (a block of a vector or of a row of B). */
#define RB_NBUF 512
/* Level 3 blocks: rows of A (or of op(A)) and the k-range of a product,
 * chosen so a block of A (64 KiB float to 256 KiB double complex) stays in
 * L2 while every column of C passes over it. */
#define RB_MB 128
#define RB_KB 128
/* Bytes of operands (columns of B and C, or rows of B) a triangular or
 * symmetric product works on at a time. */
#define RB_CACHE_BYTES (192 * 1024)

/* Which rows of column j a Level 3 product updates: all, i <= j, i >= j. */
enum { RB_ALL, RB_UP, RB_LO };

static inline int rb_max1(int a) {
    return a > 1 ? a : 1;
}

static inline int rb_min(int a, int b) {
    return a < b ? a : b;
}

/* Offset of the logical first element of an n-vector with increment inc:
 * the pointer an argument gives is its lowest-addressed element. */
static inline ptrdiff_t rb_first(int n, int inc) {
    return inc < 0 ? (ptrdiff_t)(1 - n) * inc : 0;
}

/* Decodes a transpose argument: *tr = transposed, *cj = conjugated. 0 for
 * an unknown value. Real types ignore *cj. */
static inline int rb_trans(enum CBLAS_TRANSPOSE t, int *tr, int *cj) {
    switch (t) {
    case CblasNoTrans: *tr = 0, *cj = 0; return 1;
    case CblasTrans: *tr = 1, *cj = 0; return 1;
    case CblasConjTrans: *tr = 1, *cj = 1; return 1;
    case CblasConjNoTrans: *tr = 0, *cj = 1; return 1;
    }
    return 0;
}

static inline int rb_uplo_ok(enum CBLAS_UPLO u) {
    return u == CblasUpper || u == CblasLower;
}

static inline int rb_diag_ok(enum CBLAS_DIAG d) {
    return d == CblasUnit || d == CblasNonUnit;
}

static inline int rb_side_ok(enum CBLAS_SIDE s) {
    return s == CblasLeft || s == CblasRight;
}

/* How many columns of rows elements of size elem (times per, the operands
 * that share the column index) fit RB_CACHE_BYTES; at least 1, at most n. */
static inline int rb_block(int rows, size_t elem, int per, int n) {
    const size_t col = (size_t)(rows > 0 ? rows : 1) * elem * (size_t)per;
    size_t b = RB_CACHE_BYTES / col;
    if (b < 1)
        b = 1;
    return b < (size_t)n ? (int)b : n;
}

#endif
