/*
 * sparse.h — the descriptors of trnsparse: sparse and dense matrices as a
 * kernel sees them, SpMV/SpMM, SpGEMM, SDDMM, attention, Schwarz bounds and
 * the format conversions, and how sparse ops split into shards.
 */
#ifndef TRN_OPS_SPARSE_H
#define TRN_OPS_SPARSE_H

#include "ops/types.h"

/* trnsparse. A sparse matrix as a kernel sees it. The validator checked the
 * numbers (sizes, extents, overflow) and that each array lies inside a
 * buffer; the CONTENTS of offsets and indices are the client's memory, which
 * may change at any time, so every kernel checks each offset and index it
 * reads before using it (kernels/cpu/sparse_check.h) and fails with a
 * message (trn_kmsg) naming the first bad position. */
typedef enum trn_sp_format {
    TRN_SP_CSR = 1,
    TRN_SP_CSC = 2,
    TRN_SP_COO = 3,
    TRN_SP_BELL = 5, /* Blocked-ELL */
    TRN_SP_BSR = 6,
    TRN_SP_SELL = 7, /* Sliced-ELL */
} trn_sp_format;

typedef struct trn_sp_mat {
    trn_sp_format format;
    trn_dtype type;       /* R32F or R64F (SpMV/SpMM also C32F, C64F, R16F, R16BF) */
    int idx64;            /* offsets and indices are int64_t (else int32_t) */
    int base;             /* 0 or 1 */
    int64_t rows, cols;   /* elements (BSR: brows * rb, bcols * cb) */
    int64_t brows, bcols; /* BSR: block rows and columns; else rows, cols */
    int64_t nnz;          /* stored entries (BSR: blocks) */
    int64_t rb, cb;       /* BSR block size; 1 otherwise */
    int block_row_major;  /* BSR: elements of a block in row-major order */
    void *offsets;        /* CSR brows+1 (rows+1), CSC cols+1, BSR brows+1; COO NULL */
    void *indices;        /* nnz: CSR/BSR column (block), CSC row, COO column */
    void *rowind;         /* COO: nnz row indices; else NULL */
    void *values;         /* nnz elements (BSR nnz*rb*cb); NULL when not read */
    /* Blocked-ELL: rb = cb = the block size, brows x bcols blocks (ceil),
     * ell_cols the width of the rows x ell_cols row-major values; indices
     * holds brows x (ell_cols / rb) block columns, -1 (whatever the base)
     * for an empty slot; nnz = brows * (ell_cols / rb) slots. Sliced-ELL:
     * rb = the slice size, brows the slices, offsets brows + 1 slice
     * offsets (from base), indices and values nnz = values_size entries,
     * entry k of row r of a slice at offset + k * rb + r, column -1 for
     * padding. */
    int64_t ell_cols;
    /* Strided batch (CSR, COO): batch >= 1 matrices of one structure
     * shape; matrix b's offsets at offsets + b * off_stride entries, its
     * indices, row indices and values at + b * stride entries. */
    int64_t batch, off_stride, stride;
} trn_sp_mat;

/* A dense matrix (a vector is rows x 1). Element (i, j) of batch entry b is at
 * values + b*stride + (row_major ? i*ld + j : i + j*ld). */
typedef struct trn_dn_mat {
    trn_dtype type;
    int64_t rows, cols, ld;
    int row_major;
    int64_t batch, stride; /* batch >= 1 */
    void *values;          /* NULL when empty */
} trn_dn_mat;

/* C = alpha op(A) B + beta C (SpMV: B and C are vectors, n = 1); op_b is
 * folded into b's layout by the validator. beta = 0: C is not read. alpha =
 * 0: A is not read. Screening (trnsparseSpMMScreened): when row_bounds is not
 * NULL, entry or block (I, J) of A is skipped when row_bounds[I] *
 * col_bounds[J] < threshold (bounds of A's type; op_a = N). */
typedef struct trn_spmm_desc {
    trn_trans op_a; /* N or T */
    double alpha, beta;
    /* Complex and 16-bit values (kernels/cpu/sparse_spmm_x.c): A, B and C
     * all of a.type; the imaginary parts of alpha and beta (0 for real
     * types), and conj_a / conj_b: op(A) / op(B) is CONJUGATE_TRANSPOSE
     * (complex only; op_a is then T, and op(B)'s transpose is folded into
     * b's layout like T's). alpha = 0 means both parts are 0. */
    double alpha_im, beta_im;
    int conj_a, conj_b;
    /* A is a 1 x k COO row without row indices (a.rowind NULL: all 0),
     * gemvi's sparse vector; op_a N (sparse_spmm_x.c, any value type). */
    int one_row;
    trn_sp_mat a;
    trn_dn_mat b, c;
    const void *row_bounds, *col_bounds;
    double threshold;
} trn_spmm_desc;

/* C = alpha A B for CSR A, B, C (op N). count: write C's row offsets,
 * 0-based int64, into counts (a.rows + 1); else fill C, reading counts back
 * (checked against what the product has: client memory). Values R32F,
 * R64F, C32F or C64F (all one type); alpha_im: alpha's imaginary part. */
typedef struct trn_spgemm_desc {
    int fill;
    double alpha, alpha_im;
    trn_sp_mat a, b, c; /* c: fill only */
    void *counts;
} trn_spgemm_desc;

/* C = alpha (A B) o spy(C) + beta C: a is m x k, b k x n (ops folded into
 * their layouts), c CSR or BSR m x n (every element of a stored block). beta = 0: C's values are
 * not read. Values R32F, R64F, C32F or C64F (all one type); conj_a, conj_b (complex opA, opB C):
 * A's, B's elements are conjugated as they are read; *_im: the scalars' imaginary parts. */
typedef struct trn_sddmm_desc {
    double alpha, beta, alpha_im, beta_im;
    int conj_a, conj_b;
    trn_dn_mat a, b;
    trn_sp_mat c;
} trn_sddmm_desc;

/* Block-sparse attention (trnsci extension): per batch entry b,
 * o = softmax(scale q k^T masked to pattern's blocks) v, online softmax
 * block by block. pattern is BSR (values unused); q is seq_q x d with
 * seq_q = pattern.rows, k seq_k x d with seq_k = pattern.cols, v seq_k x dv,
 * o seq_q x dv, all with the same batch count. */
typedef struct trn_attn_desc {
    double scale;
    trn_dn_mat q, k, v, o;
    trn_sp_mat pattern;
} trn_attn_desc;

/* bounds[I] = sqrt(max |diag[i]|, i in block I of block_size). */
typedef struct trn_schwarz_desc {
    trn_dn_mat diag, bounds;
    int64_t block_size;
} trn_schwarz_desc;

/* Format conversions (the wire's SparseConvert, same values). Offsets read
 * back by the _FILL steps (CSR_TO_BSR, DENSE_TO_SPARSE) are client memory:
 * the kernel checks them against what it finds. */
typedef enum trn_spc_fn {
    TRN_SPC_CSR_TO_COO = 1,
    TRN_SPC_COO_TO_CSR = 2,
    TRN_SPC_CSR_TO_CSC = 3,
    TRN_SPC_CSR_TO_BSR_NNZ = 4,
    TRN_SPC_CSR_TO_BSR = 5,
    TRN_SPC_BSR_TO_CSR = 6,
    TRN_SPC_DENSE_TO_SPARSE_ANALYSIS = 7,
    TRN_SPC_DENSE_TO_SPARSE = 8,
    TRN_SPC_SPARSE_TO_DENSE = 9,
} trn_spc_fn;

typedef struct trn_spconvert_desc {
    trn_spc_fn fn;
    trn_sp_mat src, dst; /* arrays the conversion does not touch are NULL */
    trn_dn_mat dense;
    int values; /* copy values (CSR_TO_CSC without structure_only) */
} trn_spconvert_desc;

/* A sparse vector (trnsparseCreateSpVec): nnz entries of a vector of size
 * elements; indices[k] - base is the position of values[k]. The indices
 * are client memory: the kernel checks each one before using it. */
typedef struct trn_sp_vec {
    trn_dtype type;
    int idx64; /* indices are int64_t (else int32_t) */
    int base;  /* 0 or 1 */
    int64_t size, nnz;
    void *indices, *values; /* NULL when nnz = 0 */
} trn_sp_vec;

/* cuSPARSE's Level 1 generic routines (the wire's SparseVectorFunction,
 * same values). */
typedef enum trn_spvec_fn {
    TRN_SPVEC_VV = 1,      /* *result = sum x_k y[i_k] */
    TRN_SPVEC_AXPBY = 2,   /* y = beta y (beta = 0: y not read); y[i_k] += alpha x_k */
    TRN_SPVEC_GATHER = 3,  /* x_k = y[i_k] */
    TRN_SPVEC_SCATTER = 4, /* y[i_k] = x_k */
    TRN_SPVEC_ROT =
        5, /* (x_k, y[i_k]) = (c x_k + s y[i_k], c y[i_k] - s x_k); c = alpha, s = beta */
} trn_spvec_fn;

/* y has x.size elements of x's type (a size x 1 column); result is one
 * element of that type (VV only). One shard: entries are processed in
 * order, so repeated indices behave as the sequential loop cuSPARSE
 * documents. Values R32F, R64F, C32F or C64F; alpha_im, beta_im are the
 * imaginary parts of the scalars (complex types, else 0); conj_x (complex
 * SpVV with opX CONJUGATE_TRANSPOSE) sums conj(x_k) y[i_k]. */
typedef struct trn_spvec_desc {
    trn_spvec_fn fn;
    double alpha, alpha_im, beta, beta_im;
    int conj_x;
    trn_sp_vec x;
    trn_dn_mat y;
    void *result;
} trn_spvec_desc;

/* op(A) C = alpha op(B) (SpSV: one column; SpSM: nrhs columns), A square
 * CSR, COO or Sliced-ELL of R32F, R64F, C32F or C64F values (B, C the
 * same); only the triangle `uplo` of A is read (strictly, plus the
 * diagonal unless diag is UNIT, where it is taken as 1). op_a C (complex
 * only) is the conjugate transpose. op_b is folded into b's layout by the
 * validator; conj_b (complex opB C) conjugates what is read of B. alpha_im
 * is alpha's imaginary part (complex types). analysis: only A's structure is checked
 * (b and c are resolved, and bound n, but not touched), one shard; the solve splits c's columns
 * (trn_cpu_shard_range over c.cols). */
typedef struct trn_spsv_desc {
    trn_trans op_a;
    trn_uplo uplo;
    trn_diag diag;
    int analysis;
    double alpha, alpha_im;
    int conj_b;
    trn_sp_mat a;
    trn_dn_mat b, c;
} trn_spsv_desc;

/* Banded solves (the wire's SparseBanded, same values): tridiagonal
 * (dl, d, du) or pentadiagonal (ds, dl, d, du, dw) systems of size m,
 * solved in place in x. Element i of system k of each diagonal is at
 * i * elem_stride + k * sys_stride; of x's column j at that plus j * ldb
 * (nrhs columns, GTSV2 only; else nrhs = 1). The out-of-band entries
 * (dl[0], du[m-1], ds[0..1], dw[m-2..m-1]) are never read and the
 * diagonals never written, so systems split over shards share nothing
 * but read-only memory (the validator refuses an x that overlaps a
 * diagonal). pivot: partial pivoting by rows (else plain elimination:
 * a zero pivot gives Inf/NaN, as cuSPARSE). */
typedef enum trn_banded_fn {
    TRN_BANDED_GTSV2 = 16,
    TRN_BANDED_GTSV2_NOPIVOT = 17,
    TRN_BANDED_GTSV2_STRIDED = 18,
    TRN_BANDED_GTSV_INTERLEAVED = 19,
    TRN_BANDED_GPSV_INTERLEAVED = 20,
} trn_banded_fn;

typedef struct trn_banded_desc {
    trn_banded_fn fn;
    trn_dtype type; /* R32F, R64F, C32F, C64F */
    int pivot;
    int penta;                       /* ds and dw are read */
    int64_t m, nrhs, ldb;            /* ldb: GTSV2 only */
    int64_t batch;                   /* systems (GTSV2: 1) */
    int64_t elem_stride;             /* elements between rows i and i+1 of a system */
    int64_t sys_stride;              /* elements between systems k and k+1 */
    void *ds, *dl, *d, *du, *dw, *x; /* NULL when empty (ds, dw: unless penta) */
} trn_banded_desc;

/* C = alpha A + beta B for CSR A, B, C (m x n, one type: real, or complex
 * since 1.15, when alpha_im and beta_im are the scalars' imaginary parts);
 * C's pattern is the union of A's and B's. fill = 0 (Xcsrgeam2Nnz): one
 * shard writes C's m + 1 offsets (c.offsets only is resolved); fill = 1
 * (csrgeam2): rows split by C's offsets (client memory: each is checked
 * against the union), C's indices sorted in each row. alpha = 0 (beta =
 * 0): A's (B's) values are not read (may be NULL). */
typedef struct trn_spgeam_desc {
    int fill;
    double alpha, beta;
    double alpha_im, beta_im; /* complex types; 0 for real ones */
    trn_sp_mat a, b, c;
} trn_spgeam_desc;

/* IC0 / ILU0 in place on a square CSR matrix's pattern (cusparse<t>csric02,
 * csrilu02): one shard, rows in order. analysis: the structure only
 * (values not resolved). *pivot (int32) receives the first row j whose
 * diagonal is missing (analysis) or missing or exactly zero (factor), plus
 * the base, or -1. */
typedef struct trn_spilu0_desc {
    int cholesky, analysis;
    trn_sp_mat a;
    int32_t *pivot;
} trn_spilu0_desc;

/* How a sparse op splits into shards (the scheduler's count and the kernel's
 * ranges both follow it): TRN_SP_SPLIT_ROWS: ranges of output rows (block
 * rows for BSR) balanced by stored entries; TRN_SP_SPLIT_COLS: ranges of the
 * dense operands' columns (scatter kernels: CSR with op T, CSC with op N,
 * COO); TRN_SP_SPLIT_NONE: one shard. *parts is the most shards it can use. */
typedef enum trn_sp_split {
    TRN_SP_SPLIT_NONE = 0,
    TRN_SP_SPLIT_ROWS = 1,
    TRN_SP_SPLIT_COLS = 2,
} trn_sp_split;
trn_sp_split trn_spmm_split(const trn_spmm_desc *d, int64_t *parts);
/* The same for conversions: CSR -> COO and BSR -> CSR by the source's rows
 * balanced by entries, CSR -> BSR by block rows, dense -> sparse by rows
 * (columns for CSC, block rows for Blocked-ELL); the others one shard. */
trn_sp_split trn_spconvert_split(const trn_spconvert_desc *d, int64_t *parts);

/* This family's op kinds: its rows of the list of kinds (ops/op_kinds.h
 * says what each column is). */
#define TRN_SPARSE_KINDS(X)                                                                        \
    X(SPMV, 80, SPMV, spmv, spmm, "spmv", "spmv", "sparse", CORE)                                  \
    X(SPMM, 81, SPMM, spmm, spmm, "spmm", "spmm", "sparse", CORE)                                  \
    X(SPGEMM, 82, SPGEMM, spgemm, spgemm, "spgemm", "spgemm", "sparse", CORE)                      \
    X(SDDMM, 83, SDDMM, sddmm, sddmm, "sddmm", "sddmm", "sparse", CORE)                            \
    X(SPCONVERT, 84, SPARSE_CONVERT, spconvert, spconvert, "spconvert", "sparse convert",          \
      "sparse", CORE)                                                                              \
    X(SPATTN, 85, SPARSE_ATTENTION, spattn, attn, "spattn", "block-sparse attention", "sparse",    \
      CORE)                                                                                        \
    X(SCHWARZ, 86, SCHWARZ_BOUNDS, schwarz, schwarz, "schwarz", "schwarz bounds", "sparse", CORE)  \
    X(SPVEC, 87, SPARSE_VECTOR, spvec, spvec, "spvec", "sparse vector", "sparse", CORE)            \
    X(SPSV, 88, SPSV, spsv, spsv, "spsv", "sparse triangular solve", "sparse", CORE)               \
    X(SPBANDED, 89, SPARSE_BANDED, spbanded, banded, "spbanded", "banded solve", "sparse", CORE)   \
    X(SPGEAM, 90, SPGEAM, spgeam, spgeam, "spgeam", "csrgeam2", "sparse", CORE)                    \
    X(SPILU0, 91, SPILU0, spilu0, spilu0, "spilu0", "incomplete factorisation", "sparse", CORE)

/* Its descriptors' places in trn_op_desc.u (ops/op.h): X(type, field); spmm: TRN_OP_SPMV,
 * TRN_OP_SPMM. */
#define TRN_SPARSE_DESCS(X)                                                                        \
    X(trn_spmm_desc, spmm)                                                                         \
    X(trn_spconvert_desc, spconvert)                                                               \
    X(trn_spgemm_desc, spgemm)                                                                     \
    X(trn_sddmm_desc, sddmm)                                                                       \
    X(trn_attn_desc, attn)                                                                         \
    X(trn_schwarz_desc, schwarz)                                                                   \
    X(trn_spvec_desc, spvec)                                                                       \
    X(trn_spsv_desc, spsv)                                                                         \
    X(trn_banded_desc, banded)                                                                     \
    X(trn_spgeam_desc, spgeam)                                                                     \
    X(trn_spilu0_desc, spilu0)

#endif
