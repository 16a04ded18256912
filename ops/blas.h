/*
 * blas.h — the descriptors of trnblas: the GEMM family (with its precision
 * modes), Level 1, Level 2 and Level 3 beyond GEMM, and how Level 2 and 3
 * ops are cut into output tiles for shards.
 */
#ifndef TRN_OPS_BLAS_H
#define TRN_OPS_BLAS_H

#include "ops/types.h"

/* What a GEMM's products are computed with (docs/numerics.md, "Precision
 * modes"); the values are the wire's ComputeType. The 32F modes go with
 * R32F/C32F data, the 64F ones with R64F/C64F. */
typedef enum trn_compute {
    TRN_COMPUTE_DEFAULT = 0,       /* the precision of the data type: 32F or 64F */
    TRN_COMPUTE_32F = 1,           /* SGEMM/CGEMM */
    TRN_COMPUTE_64F = 2,           /* DGEMM/ZGEMM */
    TRN_COMPUTE_32F_FAST_16BF = 3, /* inputs rounded to bfloat16, FP32 accumulation */
    TRN_COMPUTE_32F_FAST_TF32 = 4, /* inputs rounded to TF32 */
    TRN_COMPUTE_32F_BF16X3 = 5,    /* hi + lo bfloat16 split, 3 products */
    TRN_COMPUTE_32F_BF16X9 = 6,    /* three-way bfloat16 split, 9 products */
    TRN_COMPUTE_64F_EMULATED = 7,  /* Ozaki splitting into exact FP32 products */
    TRN_COMPUTE_32F_FAST_16F = 8,  /* inputs rounded to IEEE binary16 */
    TRN_COMPUTE_16F = 9,           /* R16F data, half scalars: FP32 sums, one rounding */
    TRN_COMPUTE_32I = 10,          /* R8I A and B, R32I C and scalars: int32 */
} trn_compute;

/* Column-major C = alpha op(A) op(B) + beta C for each of `batch` matrix
 * triples; dimensions fit in int. Matrix i is at a + i*stride_a elements
 * (strided batches; stride 0 reuses one matrix), or at a_list[i] when
 * a_list is set (pointer-array batches; then a, b, c are unused). A and B
 * (a, b, or every a_list/b_list entry) are NULL when not read (alpha = 0 or
 * k = 0). The C matrices of a batch never overlap. */
typedef struct trn_gemm_desc {
    trn_dtype type; /* C's */
    /* A and B's storage when it differs from C's (16-bit or int8 storage:
     * trnblasHgemm, GemmEx; complex int8, C8I, with C in C32F); 0 means
     * `type`. Such ops widen A and B exactly to FP32 (int8: int32; C8I:
     * complex float), accumulate in FP32 (int32) and round the result once
     * to C's type (trn_gemm_scale_type: alpha and beta). */
    trn_dtype ab_type;
    trn_trans transa, transb;
    int m, n, k;
    trn_scalar alpha, beta;
    const void *a;
    int lda;
    const void *b;
    int ldb;
    void *c;
    int ldc;
    trn_compute compute;
    /* FAST_16BF / FAST_TF32: round the inputs stochastically, with random
     * bits that are a function of seed and each element's place
     * (docs/numerics.md, "Stochastic rounding"). */
    int stochastic;
    uint64_t seed;
    /* Device pointer mode: alpha / beta (an element of type) are read from
     * here when the op runs; NULL: the values above. */
    const void *alpha_ptr, *beta_ptr;
    size_t batch; /* 0 or 1: one GEMM */
    size_t stride_a, stride_b, stride_c;
    const void *const *a_list;
    const void *const *b_list;
    void *const *c_list;
    /* A precision mode's operands converted ahead (ops/convert_stage.h):
     * TRN_GEMM_SPLIT_AHEAD, the op's first stage, on a copy engine, writes
     * the low-precision pieces of op(A) and op(B) to pieces_a and pieces_b;
     * TRN_GEMM_SPLIT_DONE, its GEMM stage, reads them instead of splitting
     * its own. TRN_GEMM_SPLIT_INLINE (0): one stage that splits as it goes.
     * Set by the daemon when it queues the op, never on the wire. */
    int split_stage;
    float *pieces_a, *pieces_b;
} trn_gemm_desc;

enum { TRN_GEMM_SPLIT_INLINE = 0, TRN_GEMM_SPLIT_AHEAD = 1, TRN_GEMM_SPLIT_DONE = 2 };

/* A and B's storage type. */
static inline trn_dtype trn_gemm_ab_type(const trn_gemm_desc *d) {
    return d->ab_type ? d->ab_type : d->type;
}

/* Whether the op stores A, B or C in 16 bits or as integers (computed by
 * widening, never by the FP32/FP64 paths or on NeuronCores). */
static inline int trn_gemm_narrow(const trn_gemm_desc *d) {
    const trn_dtype ab = trn_gemm_ab_type(d);
    return ab != d->type || d->type >= TRN_DTYPE_R16F;
}

/* The type of alpha and beta (and of the element alpha_ptr / beta_ptr
 * point to): half with COMPUTE_16F, int32 with COMPUTE_32I, float for the
 * other real narrow ops, complex float for C_8I A and B (C in C_32F), else
 * the data type. */
static inline trn_dtype trn_gemm_scale_type(const trn_gemm_desc *d) {
    if (d->compute == TRN_COMPUTE_16F)
        return TRN_DTYPE_R16F;
    if (d->compute == TRN_COMPUTE_32I)
        return TRN_DTYPE_R32I;
    if (d->type == TRN_DTYPE_C32F)
        return TRN_DTYPE_C32F;
    return trn_gemm_narrow(d) ? TRN_DTYPE_R32F : d->type;
}

/* BLAS Level 1 routines (one descriptor for all, like the wire's Blas1Op). */
typedef enum trn_blas1_fn {
    TRN_BLAS1_AXPY = 1,
    TRN_BLAS1_SCAL = 2,
    TRN_BLAS1_COPY = 3,
    TRN_BLAS1_SWAP = 4,
    TRN_BLAS1_DOT = 5, /* dotu for complex types */
    TRN_BLAS1_DOTC = 6,
    TRN_BLAS1_NRM2 = 7,
    TRN_BLAS1_ASUM = 8,
    TRN_BLAS1_IAMAX = 9,
    TRN_BLAS1_IAMIN = 10,
    TRN_BLAS1_ROT = 11,
    TRN_BLAS1_ROTM = 12,  /* x, y by reference BLAS's H (param) */
    TRN_BLAS1_ROTG = 13,  /* device pointer mode: sp = a, b, c, s */
    TRN_BLAS1_ROTMG = 14, /* device pointer mode: sp = d1, d2, x1, y1, param */
} trn_blas1_fn;

/* n >= 0 (0 when the routine does nothing: n <= 0, or incx <= 0 for SCAL,
 * NRM2, ASUM, IAMAX, IAMIN); increments as the client gave them (reference
 * BLAS: x points to the lowest element also when incx < 0). x and y are
 * NULL when not used; result (reductions only) is never NULL: the kernel
 * always writes it (0 when n = 0). */
typedef struct trn_blas1_desc {
    trn_blas1_fn fn;
    /* R16F / R16BF (cuBLAS's Level 1 Ex half-precision rows, protocol
     * 1.14): AXPY, SCAL, DOT, NRM2 and ROT only; alpha (and alpha_ptr's
     * element) is then a float, ROT's c and s are elements of type, and
     * DOT's and NRM2's result is an element of type. */
    trn_dtype type;
    int n;
    trn_scalar alpha; /* AXPY, SCAL; ROT: c in alpha.re */
    trn_scalar beta;  /* ROT: s */
    int real_scalar;  /* complex SCAL/ROT with a real alpha / s */
    /* Device pointer mode: alpha (AXPY, SCAL; ROT: c) and beta (ROT: s) are
     * read from here when the op runs: a complex element for complex types,
     * a real component for ROT's c and with real_scalar; NULL: the values
     * above. */
    const void *alpha_ptr;
    const void *beta_ptr;
    void *x;
    int incx;
    void *y;
    int incy;
    void *result;
    /* DOT, DOTC, NRM2, ASUM: compensated accumulation (docs/numerics.md,
     * "Compensated reductions"). */
    int compensated;
    /* ROTM: H as reference BLAS's param (flag, h11, h21, h12, h22), or
     * read from sp[0] when that is set. ROTG, ROTMG: their scalar
     * arguments in device memory (ops/blas_rot.h), all set. */
    double param[5];
    void *sp[5];
} trn_blas1_desc;

/* BLAS Level 2 routines (one descriptor for all, like the wire's Blas2Op). */
typedef enum trn_blas2_fn {
    TRN_BLAS2_GEMV = 1,
    TRN_BLAS2_GBMV = 2,
    TRN_BLAS2_SYMV = 3,
    TRN_BLAS2_HEMV = 4,
    TRN_BLAS2_TRMV = 5,
    TRN_BLAS2_TRSV = 6,
    TRN_BLAS2_GER = 7, /* geru for complex types */
    TRN_BLAS2_GERC = 8,
    TRN_BLAS2_SYR = 9,
    TRN_BLAS2_SYR2 = 10,
    TRN_BLAS2_HER = 11,
    TRN_BLAS2_HER2 = 12,
    /* Band storage (k + 1 rows of the uplo triangle's diagonals, lda >= k +
     * 1) and packed storage (the uplo triangle column by column, n (n + 1)
     * / 2 elements; lda unused), reference BLAS's layouts. */
    TRN_BLAS2_TBMV = 13,
    TRN_BLAS2_TBSV = 14,
    TRN_BLAS2_TPMV = 15,
    TRN_BLAS2_TPSV = 16,
    TRN_BLAS2_SBMV = 17,
    TRN_BLAS2_HBMV = 18,
    TRN_BLAS2_SPMV = 19,
    TRN_BLAS2_HPMV = 20,
    TRN_BLAS2_SPR = 21,
    TRN_BLAS2_HPR = 22,
    TRN_BLAS2_SPR2 = 23,
    TRN_BLAS2_HPR2 = 24,
} trn_blas2_fn;

/* m, n >= 0 (m is n for the square routines); increments non-zero, as the
 * client gave them (x and y point to their lowest element also for
 * negative increments). Pointers are NULL for operands that are not read:
 * with nothing to do (an empty shape), and, in host pointer mode, A and x
 * when alpha = 0 (gemv, gbmv, symv, hemv) or A, x and y when alpha = 0
 * (ger, syr, syr2, her, her2). Real types: trans C is stored as T. */
typedef struct trn_blas2_desc {
    trn_blas2_fn fn;
    trn_dtype type;
    trn_trans trans;
    trn_uplo uplo;
    trn_diag diag;
    int m, n;
    int kl, ku; /* GBMV */
    int k;      /* TBMV, TBSV, SBMV, HBMV */
    trn_scalar alpha, beta;
    /* Device pointer mode: alpha / beta are read from here when the op
     * runs (an element of type; HER's alpha a real component); NULL: the
     * values above. */
    const void *alpha_ptr;
    const void *beta_ptr;
    void *a; /* written by GER, GERC, SYR, SYR2, HER, HER2, SPR, HPR, SPR2, HPR2 */
    int lda;
    void *x; /* written by TRMV, TRSV, TBMV, TBSV, TPMV, TPSV */
    int incx;
    void *y; /* written by GEMV, GBMV, SYMV, HEMV, SBMV, HBMV, SPMV, HPMV */
    int incy;
} trn_blas2_desc;

/* The output tiles of a Level 2 op, for GEMV (the elements of y: rows of A
 * without a transpose, columns with one) and GER/GERC (the columns of A),
 * cut as Level 3's (trn_blas3_tile_width); every other Level 2 op is one
 * tile. A shard takes whole tiles, each computed by the same library call
 * whatever the shard count. */
int trn_blas2_tile_extent(const trn_blas2_desc *d);
int trn_blas2_tiles(const trn_blas2_desc *d);

/* BLAS Level 3 routines other than GEMM (one descriptor, like Blas3Op). */
typedef enum trn_blas3_fn {
    TRN_BLAS3_SYMM = 1,
    TRN_BLAS3_HEMM = 2,
    TRN_BLAS3_SYRK = 3,
    TRN_BLAS3_HERK = 4,
    TRN_BLAS3_SYR2K = 5,
    TRN_BLAS3_HER2K = 6,
    TRN_BLAS3_TRSM = 7,
    TRN_BLAS3_TRMM = 8,
    TRN_BLAS3_GEAM = 9,
    TRN_BLAS3_DGMM = 10,
    TRN_BLAS3_SYRKX = 11, /* syrk with op(A) op(B)^T: A and B as syr2k's */
    TRN_BLAS3_HERKX = 12, /* herk with op(A) op(B)^H, alpha complex, beta real */
} trn_blas3_fn;

/* m, n, k >= 0 (SYRK..HER2K: C is n x n and m = n). Operands that are not
 * read are NULL: everything with an empty shape; in host pointer mode A and
 * B when alpha = 0 (GEAM: A when alpha = 0, B when beta = 0), and the
 * inputs of SYRK..HER2K when k = 0. trsm's B is its in/out matrix; trmm
 * writes C (which may be B). Real types: trans C is stored as T. */
typedef struct trn_blas3_desc {
    trn_blas3_fn fn;
    trn_dtype type;
    trn_side side;
    trn_uplo uplo;
    trn_trans transa, transb;
    trn_diag diag;
    int m, n, k;
    trn_scalar alpha, beta;
    /* Device pointer mode, as in trn_blas2_desc (HERK's alpha and beta and
     * HER2K's beta are real components). */
    const void *alpha_ptr;
    const void *beta_ptr;
    const void *a;
    int lda;
    void *b; /* written by TRSM */
    int ldb;
    void *c;
    int ldc;
    const void *x; /* DGMM */
    int incx;
} trn_blas3_desc;

/* cuBLAS's batched LU (trnblas<t>getrfBatched, getrsBatched, getriBatched,
 * matinvBatched) and batched QR (geqrfBatched, gelsBatched): batch matrices
 * listed in a (leading dimension lda), n x n for the LU routines and m x n
 * for the QR ones. getrf factors each in place (P L U with pivots, or L U
 * without), getrs solves op(A_i) X = B_i with the factors (B_i listed in c,
 * n x nrhs, ldc), getri writes inv(A_i) from the factors into c[i], matinv
 * inverts the matrix itself (n <= 32) into c[i]. geqrf factors A_i = Q R in
 * place (LAPACK's geqrf: R on and above the diagonal, the Householder
 * vectors below it, their scalars in tau[i]); gels (m >= n) overwrites A_i
 * with its QR factors and the m x nrhs c[i] with the least squares
 * solution in its first n rows. The pointer arrays are owned by the op's
 * references (ops/validate/validate.h). */
typedef enum trn_lu_fn {
    TRN_LU_GETRF = 1,
    TRN_LU_GETRS = 2,
    TRN_LU_GETRI = 3,
    TRN_LU_MATINV = 4,
    TRN_LU_GEQRF = 5,
    TRN_LU_GELS = 6,
    /* trsmBatched: op(A_i) X = alpha B_i (side left) or X op(A_i) = alpha
     * B_i (right), in place in c[i] = B_i, which is m x nrhs (trsm's m and
     * n); A_i is triangular of order n (trsm's m for side left, its n for
     * side right). */
    TRN_LU_TRSM = 7,
} trn_lu_fn;

/* The largest n of matinvBatched (cuBLAS's limit). */
#define TRN_LU_MATINV_MAX_N 32

typedef struct trn_lu_batched_desc {
    trn_lu_fn fn;
    trn_dtype type;
    trn_trans trans; /* getrs */
    int m;           /* rows of A (and of c[i] for gels); n for the LU routines */
    int n, nrhs;     /* nrhs: getrs, gels */
    int lda, ldc;
    void *const *a;   /* getrf, geqrf, gels: in and out; the others read it */
    void *const *c;   /* getrs: B; getri: C; matinv: Ainv; gels: C; NULL for getrf, geqrf */
    void *const *tau; /* geqrf: min(m, n) scalars per matrix; NULL otherwise */
    int32_t *pivots;  /* n per matrix, 1-based; NULL: no pivoting (always for matinv) */
    int32_t *info; /* one per matrix (getrf, getri, matinv; gels: or NULL); NULL for getrs, geqrf */
    int batch;
    /* TRSM: a is NULL when not read (host alpha = 0: every B_i becomes 0). */
    trn_side side;
    trn_uplo uplo;
    trn_diag diag;
    trn_scalar alpha;
    const void *alpha_ptr; /* device pointer mode: an element of type, read when run */
} trn_lu_batched_desc;

/* The output tiles of a Level 3 op: the columns of C (B for TRSM), or its
 * rows for TRSM, TRMM, SYMM and HEMM from the right, cut into blocks of
 * trn_blas3_tile_width(extent) starting at 0. Each tile is computed by the
 * same library calls whatever the shard count (a shard takes whole tiles),
 * so a sharded op is bitwise equal to the unsharded one. */
int trn_blas3_tile_extent(const trn_blas3_desc *d);
int trn_blas3_tile_width(int extent);
int trn_blas3_tiles(const trn_blas3_desc *d);

/* This family's op kinds: its rows of the list of kinds (ops/op_kinds.h
 * says what each column is). */
#define TRN_BLAS_KINDS(X)                                                                          \
    X(GEMM, 16, GEMM, gemm, gemm, "gemm", "gemm", "blas", CORE)                                    \
    X(BLAS1, 17, BLAS1, blas1, blas1, "blas1", "blas1", "blas", CORE)                              \
    X(BLAS2, 18, BLAS2, blas2, blas2, "blas2", "blas2", "blas", CORE)                              \
    X(BLAS3, 19, BLAS3, blas3, blas3, "blas3", "blas3", "blas", CORE)                              \
    X(LU_BATCHED, 20, LU_BATCHED, lu_batched, lu_batched, "lu_batched", "batched LU", "blas", CORE)

/* Its descriptors' places in trn_op_desc.u (ops/op.h): X(type, field). */
#define TRN_BLAS_DESCS(X)                                                                          \
    X(trn_gemm_desc, gemm)                                                                         \
    X(trn_blas1_desc, blas1)                                                                       \
    X(trn_blas2_desc, blas2)                                                                       \
    X(trn_blas3_desc, blas3)                                                                       \
    X(trn_lu_batched_desc, lu_batched)

#endif
