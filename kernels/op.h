/*
 * op.h — plain C op descriptors: what a kernel computes.
 *
 * daemon/ turns a validated wire request into one of these; scheduler/ queues
 * and shards them; a backend under kernels/ computes them. Nothing here knows
 * about protobuf, sessions or transports.
 *
 * Invariant: a descriptor that reaches a backend has been fully validated —
 * every pointer/extent lies inside memory the daemon owns for the duration of
 * the op, every dimension fits the backend library's integer type. Kernels
 * never check arguments again.
 */
#ifndef TRN_KERNELS_OP_H
#define TRN_KERNELS_OP_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

typedef enum trn_dtype {
    TRN_DTYPE_R32F = 1,
    TRN_DTYPE_R64F = 2,
    TRN_DTYPE_C32F = 3,
    TRN_DTYPE_C64F = 4,
} trn_dtype;

/* Bytes per element of a dtype (0 for an unknown value). */
static inline size_t trn_dtype_size(trn_dtype t) {
    switch (t) {
    case TRN_DTYPE_R32F: return 4;
    case TRN_DTYPE_R64F: return 8;
    case TRN_DTYPE_C32F: return 8;
    case TRN_DTYPE_C64F: return 16;
    }
    return 0;
}

typedef enum trn_trans {
    TRN_TRANS_N = 0,
    TRN_TRANS_T = 1,
    TRN_TRANS_C = 2,
} trn_trans;

typedef enum trn_op_kind {
    TRN_OP_MEMSET = 1,
    TRN_OP_COPY = 2,
    TRN_OP_GEMM = 16,
    TRN_OP_BLAS1 = 17,
    TRN_OP_BLAS2 = 18,
    TRN_OP_BLAS3 = 19,
    TRN_OP_FFT = 32,
    TRN_OP_RAND = 48,
    TRN_OP_SOLVER_DENSE = 64,
    TRN_OP_SOLVER_BATCHED = 65,
    TRN_OP_SOLVER_EIGEN = 66,
    TRN_OP_SOLVER_REFINE = 67,
    TRN_OP_SOLVER_KRYLOV = 68,
    TRN_OP_SPMV = 80,
    TRN_OP_SPMM = 81,
    TRN_OP_SPGEMM = 82,
    TRN_OP_SDDMM = 83,
    TRN_OP_SPCONVERT = 84,
    TRN_OP_SPATTN = 85,
    TRN_OP_SCHWARZ = 86,
    TRN_OP_TENSOR_CONTRACT = 96,
    TRN_OP_TENSOR_ELEMENTWISE = 97,
    TRN_OP_TENSOR_REDUCTION = 98,
    TRN_OP_AO_TO_MO = 104,
    TRN_OP_MP2_ENERGY = 105,
} trn_op_kind;

typedef struct trn_scalar {
    double re, im;
} trn_scalar;

typedef struct trn_memset_desc {
    void *dst;
    int value;
    size_t bytes;
} trn_memset_desc;

typedef struct trn_copy_desc {
    void *dst;
    const void *src;
    size_t bytes;
} trn_copy_desc;

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
} trn_compute;

/* Column-major C = alpha op(A) op(B) + beta C for each of `batch` matrix
 * triples; dimensions fit in int. Matrix i is at a + i*stride_a elements
 * (strided batches; stride 0 reuses one matrix), or at a_list[i] when
 * a_list is set (pointer-array batches; then a, b, c are unused). A and B
 * (a, b, or every a_list/b_list entry) are NULL when not read (alpha = 0 or
 * k = 0). The C matrices of a batch never overlap. */
typedef struct trn_gemm_desc {
    trn_dtype type;
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
} trn_gemm_desc;

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
} trn_blas1_fn;

/* n >= 0 (0 when the routine does nothing: n <= 0, or incx <= 0 for SCAL,
 * NRM2, ASUM, IAMAX, IAMIN); increments as the client gave them (reference
 * BLAS: x points to the lowest element also when incx < 0). x and y are
 * NULL when not used; result (reductions only) is never NULL: the kernel
 * always writes it (0 when n = 0). */
typedef struct trn_blas1_desc {
    trn_blas1_fn fn;
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
} trn_blas1_desc;

/* Which triangle is stored (cublasFillMode_t; FULL never reaches a kernel),
 * whether the diagonal is implicitly 1, and the side a special matrix
 * multiplies from. Values are cuBLAS's. */
typedef enum trn_uplo { TRN_UPLO_LOWER = 0, TRN_UPLO_UPPER = 1 } trn_uplo;
typedef enum trn_diag { TRN_DIAG_NON_UNIT = 0, TRN_DIAG_UNIT = 1 } trn_diag;
typedef enum trn_side { TRN_SIDE_LEFT = 0, TRN_SIDE_RIGHT = 1 } trn_side;

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
    trn_scalar alpha, beta;
    /* Device pointer mode: alpha / beta are read from here when the op
     * runs (an element of type; HER's alpha a real component); NULL: the
     * values above. */
    const void *alpha_ptr;
    const void *beta_ptr;
    void *a; /* written by GER, GERC, SYR, SYR2, HER, HER2 */
    int lda;
    void *x; /* written by TRMV, TRSV */
    int incx;
    void *y; /* written by GEMV, GBMV, SYMV, HEMV */
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

/* The output tiles of a Level 3 op: the columns of C (B for TRSM), or its
 * rows for TRSM, TRMM, SYMM and HEMM from the right, cut into blocks of
 * trn_blas3_tile_width(extent) starting at 0. Each tile is computed by the
 * same library calls whatever the shard count (a shard takes whole tiles),
 * so a sharded op is bitwise equal to the unsharded one. */
int trn_blas3_tile_extent(const trn_blas3_desc *d);
int trn_blas3_tile_width(int extent);
int trn_blas3_tiles(const trn_blas3_desc *d);

/* Random numbers from the Philox4x32-10 stream (docs/numerics.md, "trnrand
 * streams"): raw word j of the stream of seed s is element j mod 4 of
 * philox4x32_10(counter {lo32(j/4), hi32(j/4), 0, 0}, key {lo32(s), hi32(s)}).
 * Element i of the output consumes raw words offset + w*i .. offset + w*i +
 * w - 1, where w is trn_rand_words_per_element(dist), so any element can be
 * computed on its own: any split of the output gives the same bits. Gamma,
 * beta and truncated normal reserve w = 1 word per element but read only
 * element i's own sub-stream, the Philox blocks with counter
 * {lo32(offset + i), hi32(offset + i), attempt, tag}, tag != 0
 * (docs/numerics.md, "Sub-streams"); a Latin hypercube reads 6 key words per
 * dimension, then w = 2 words per element. */
typedef enum trn_rand_dist {
    TRN_RAND_U32 = 1,           /* the raw words */
    TRN_RAND_UNIFORM_F32 = 2,   /* (0, 1] */
    TRN_RAND_UNIFORM_F64 = 3,   /* (0, 1] */
    TRN_RAND_NORMAL_F32 = 4,    /* mean, stddev; n even */
    TRN_RAND_NORMAL_F64 = 5,    /* mean, stddev; n even */
    TRN_RAND_LOGNORMAL_F32 = 6, /* exp(normal(mean, stddev)); n even */
    TRN_RAND_LOGNORMAL_F64 = 7, /* exp(normal(mean, stddev)); n even */
    TRN_RAND_POISSON = 8,       /* uint32, Poisson(lambda) by inversion */
    /* trnsci extensions, Philox only (docs/numerics.md, "Extensions"). */
    TRN_RAND_EXPONENTIAL_F32 = 9, /* rate lambda, by inversion */
    TRN_RAND_EXPONENTIAL_F64 = 10,
    TRN_RAND_GAMMA_F32 = 11, /* shape, scale; per-element sub-stream */
    TRN_RAND_GAMMA_F64 = 12,
    TRN_RAND_BETA_F32 = 13, /* beta_a, beta_b; per-element sub-stream */
    TRN_RAND_BETA_F64 = 14,
    TRN_RAND_TRUNCNORMAL_F32 = 15, /* mean, stddev, lower, upper; sub-stream */
    TRN_RAND_TRUNCNORMAL_F64 = 16,
    TRN_RAND_LHS_F32 = 17, /* n = points x lhs_dims, dimension-major */
    TRN_RAND_LHS_F64 = 18,
    TRN_RAND_U64 = 19, /* Sobol64 generators only: the 64-bit points */
} trn_rand_dist;

/* The largest lambda a Poisson op accepts (docs/numerics.md, "Poisson"). */
#define TRN_RAND_POISSON_LAMBDA_MAX 1e8

/* The most points per dimension of a Latin hypercube op (docs/numerics.md,
 * "Latin hypercube"): float results resolve at most 2^20 strata, doubles
 * 2^32. */
#define TRN_RAND_LHS_MAX_POINTS_F32 (UINT64_C(1) << 20)
#define TRN_RAND_LHS_MAX_POINTS_F64 (UINT64_C(1) << 32)
/* Round keys per dimension of the Latin hypercube permutation. */
#define TRN_RAND_LHS_ROUNDS 6

/* The generator behind an op. TRN_RAND_PHILOX is the stream above. The Sobol
 * generators (docs/numerics.md, "Sobol32") make `dims` dimensions of 32-bit
 * Sobol points: n is a multiple of dims, element i is point
 * offset + i % (n/dims) of dimension i / (n/dims) (cuRAND's dimension-major
 * layout), offset counts points and offset + n/dims <= 2^32. Every element
 * is a function of (dimension, point index) alone. Sobol ops take U32,
 * UNIFORM_* and (LOG)NORMAL_* (by the inverse normal CDF, any n); seed is
 * not used; POISSON is not available. */
typedef enum trn_rand_gen {
    TRN_RAND_PHILOX = 0,
    TRN_RAND_SOBOL32 = 1,
    TRN_RAND_SCRAMBLED_SOBOL32 = 2, /* each dimension XORed with a constant */
    TRN_RAND_SOBOL64 = 3,           /* 64-bit points, offset + n/dims <= 2^64 */
    TRN_RAND_SCRAMBLED_SOBOL64 = 4,
} trn_rand_gen;

/* Dimensions of the Sobol direction-number table (kernels/cpu/sobol.h). */
#define TRN_SOBOL_MAX_DIMS 1024

typedef struct trn_rand_desc {
    trn_rand_dist dist;
    trn_rand_gen gen;
    uint32_t dims; /* Sobol: 1 .. TRN_SOBOL_MAX_DIMS; Philox: unused */
    uint64_t seed;
    uint64_t offset; /* Philox: raw word where element 0 starts; Sobol: point */
    double mean, stddev;
    double lambda;         /* Poisson: 0 < lambda <= TRN_RAND_POISSON_LAMBDA_MAX;
                              exponential: the rate, finite and > 0 */
    double shape, scale;   /* gamma: finite, > 0 */
    double beta_a, beta_b; /* beta: finite, > 0 */
    double lower, upper;   /* truncated normal: not NaN, lower < upper */
    uint32_t lhs_dims;     /* Latin hypercube: >= 1, n % lhs_dims == 0 */
    void *dst;             /* n elements of the distribution's type */
    size_t n;
} trn_rand_desc;

/* Raw 32-bit words one element consumes (0 for an unknown dist). Normal
 * distributions make their elements in Box-Muller pairs from the words of
 * the pair, and a pair never straddles a shard (shards split at even
 * elements). */
static inline unsigned trn_rand_words_per_element(trn_rand_dist d) {
    switch (d) {
    case TRN_RAND_U32:
    case TRN_RAND_UNIFORM_F32:
    case TRN_RAND_NORMAL_F32:
    case TRN_RAND_LOGNORMAL_F32:
    case TRN_RAND_EXPONENTIAL_F32:
    case TRN_RAND_GAMMA_F32:
    case TRN_RAND_GAMMA_F64:
    case TRN_RAND_BETA_F32:
    case TRN_RAND_BETA_F64:
    case TRN_RAND_TRUNCNORMAL_F32:
    case TRN_RAND_TRUNCNORMAL_F64: return 1;
    case TRN_RAND_UNIFORM_F64:
    case TRN_RAND_NORMAL_F64:
    case TRN_RAND_LOGNORMAL_F64:
    case TRN_RAND_POISSON:
    case TRN_RAND_EXPONENTIAL_F64:
    case TRN_RAND_LHS_F32:
    case TRN_RAND_LHS_F64: return 2;
    case TRN_RAND_U64: return 0; /* Sobol64 only */
    }
    return 0;
}

/* Bytes of one element of dist's output. */
static inline size_t trn_rand_element_size(trn_rand_dist d) {
    switch (d) {
    case TRN_RAND_U32:
    case TRN_RAND_UNIFORM_F32:
    case TRN_RAND_NORMAL_F32:
    case TRN_RAND_LOGNORMAL_F32:
    case TRN_RAND_POISSON:
    case TRN_RAND_EXPONENTIAL_F32:
    case TRN_RAND_GAMMA_F32:
    case TRN_RAND_BETA_F32:
    case TRN_RAND_TRUNCNORMAL_F32:
    case TRN_RAND_LHS_F32: return 4;
    case TRN_RAND_UNIFORM_F64:
    case TRN_RAND_NORMAL_F64:
    case TRN_RAND_LOGNORMAL_F64:
    case TRN_RAND_EXPONENTIAL_F64:
    case TRN_RAND_GAMMA_F64:
    case TRN_RAND_BETA_F64:
    case TRN_RAND_TRUNCNORMAL_F64:
    case TRN_RAND_LHS_F64:
    case TRN_RAND_U64: return 8;
    }
    return 0;
}

/* FFT types, cuFFT's six. */
typedef enum trn_fft_type {
    TRN_FFT_C2C = 1,
    TRN_FFT_R2C = 2,
    TRN_FFT_C2R = 3,
    TRN_FFT_Z2Z = 4,
    TRN_FFT_D2Z = 5,
    TRN_FFT_Z2D = 6,
} trn_fft_type;

#define TRN_FFT_MAX_RANK 3
/* Pointer and distance alignment (bytes) of the "aligned" plan variants:
 * the SIMD alignment FFTW checks with fftw_alignment_of. */
#define TRN_FFT_ALIGN 16

/* What an FFT plan is prepared for: one transform of rank sizes n with its
 * layout (kernels/fft_shape.h). Batch and distances are not part of it: a
 * batch runs as repeated single transforms, so every batch size shares one
 * plan and any split of a batch over cores gives the same bits. All values
 * are validated to fit in int. */
typedef struct trn_fft_shape {
    trn_fft_type type;
    int rank;
    int n[TRN_FFT_MAX_RANK];
    int basic; /* the basic layout: embeds are the logical sizes, strides 1 */
    int inembed[TRN_FFT_MAX_RANK], istride;
    int onembed[TRN_FFT_MAX_RANK], ostride;
} trn_fft_shape;

/* Planning effort (FFTW's estimate / measure / patient). */
typedef enum trn_plan_effort {
    TRN_PLAN_ESTIMATE = 0,
    TRN_PLAN_MEASURE = 1,
    TRN_PLAN_PATIENT = 2,
} trn_plan_effort;

/* ---- trntensor (kernels/tensor_plan.c, kernels/cpu/tensor*.c) ------------ */

/* The most modes of one tensor operand (TRNTENSOR_MAX_MODES). */
#define TRN_TENSOR_MAX_MODES 16

/* One operand's layout: mode i has label mode[i], extent[i] >= 1 and
 * stride[i] >= 1 elements; labels are distinct within the operand. */
typedef struct trn_tensor_layout {
    int nmodes;
    int32_t mode[TRN_TENSOR_MAX_MODES];
    int64_t extent[TRN_TENSOR_MAX_MODES];
    int64_t stride[TRN_TENSOR_MAX_MODES];
} trn_tensor_layout;

/* A contraction D = alpha A B + beta C (C has D's layout), validated:
 * every mode of D is in A or B, every mode of A or B is in at least two of
 * A, B and D, shared labels have equal extents, D's elements do not
 * overlap. Labels are canonical (0, 1, ... in order of first appearance in
 * A, then B, then D), so equal contractions have equal specs and keys. */
typedef struct trn_tensor_contract_spec {
    trn_dtype type; /* R32F or R64F */
    trn_compute compute;
    trn_tensor_layout a, b, d;
} trn_tensor_contract_spec;

/* D = alpha A B + beta C through a prepared plan (kernels/tensor_plan.h).
 * c is NULL when beta = 0, and may equal d. */
typedef struct trn_tensor_contract_desc {
    const void *plan; /* the trn_tensor_plan, held by the op */
    trn_dtype type;
    double flops;   /* 2 m n k per batch element, all batch elements */
    int64_t nbatch; /* GEMMs, each of n columns (the scheduler's split) */
    int n;
    trn_scalar alpha, beta;
    const void *a, *b, *c;
    void *d;
} trn_tensor_contract_desc;

/* Element-wise ops, permutations and reductions over D's modes, resolved by
 * the validator: mode i of D has extent[i]; stride_x[i] is input x's stride
 * for that mode (0 when x lacks it: broadcast); reduced modes (reductions
 * only) have rextent[] and A's strides rstride_a[]. Inputs that are absent
 * have NULL pointers. Every operand has data type `type`, except A of a
 * permutation (no B, no C, not a reduction), which may have the other real
 * type (type_a): the permutation converts, forming alpha opA(A) in the
 * precision `compute` (32F: A's element and the result are rounded to FP32)
 * and rounding it once to D's type. */
typedef struct trn_tensor_ew_desc {
    trn_dtype type;      /* D's (and B's and C's) */
    trn_dtype type_a;    /* A's: type, or the other real type in a permutation */
    trn_compute compute; /* TRN_COMPUTE_32F or _64F */
    int reduce;          /* TRN_OP_TENSOR_REDUCTION: D = alpha red(opA(A)) + beta opC(C) */
    int nmodes, nrmodes;
    int64_t extent[TRN_TENSOR_MAX_MODES];
    int64_t stride_a[TRN_TENSOR_MAX_MODES], stride_b[TRN_TENSOR_MAX_MODES];
    int64_t stride_c[TRN_TENSOR_MAX_MODES], stride_d[TRN_TENSOR_MAX_MODES];
    int64_t rextent[TRN_TENSOR_MAX_MODES], rstride_a[TRN_TENSOR_MAX_MODES];
    int op_a, op_b, op_c;      /* unary (cutensorOperator_t values) */
    int op_ab, op_abc, op_red; /* binary: ADD, MUL, MAX, MIN */
    trn_scalar alpha, beta, gamma;
    const void *a, *b, *c;
    void *d;
    uint64_t elements; /* of D */
    uint64_t reduced;  /* elements of A per element of D (1 when not reducing) */
} trn_tensor_ew_desc;

/* What a plan is prepared for: the plan cache's key (with the backend's
 * version): FFT transforms and tensor contractions. */
typedef enum trn_plan_family { TRN_PLAN_FFT = 1, TRN_PLAN_TENSOR = 2 } trn_plan_family;

typedef struct trn_plan_spec {
    trn_plan_family family;
    trn_plan_effort effort;
    union {
        trn_fft_shape fft;
        trn_tensor_contract_spec tensor;
    } u;
} trn_plan_spec;

/* Variants of an FFT plan: one FFTW plan each, prepared when first needed.
 * Bits: inverse (C2R/Z2D always), in place, unaligned (a pointer or a
 * distance not a multiple of TRN_FFT_ALIGN bytes). */
#define TRN_FFT_VARIANT_INVERSE 1u
#define TRN_FFT_VARIANT_INPLACE 2u
#define TRN_FFT_VARIANT_UNALIGNED 4u
#define TRN_FFT_VARIANTS 8u

/* batch transforms of plan's shape: transform b reads in + b*idist and
 * writes out + b*odist (distances in elements of the input's and the
 * output's type). plan is the backend's prepared plan, held by the op. */
typedef struct trn_fft_desc {
    void *plan;
    trn_fft_type type;
    unsigned variant; /* TRN_FFT_VARIANT_* bits */
    const void *in;
    void *out;
    size_t batch;
    size_t idist, odist;
    double points; /* elements of one transform (product of n), for the cost */
} trn_fft_desc;

/* ---- trnsolver (kernels/cpu/solver_*.c) ------------------------------------ */

/* The routines, numbered like the wire's SolverFunction. */
typedef enum trn_solver_fn {
    TRN_SOLVER_POTRF = 1,
    TRN_SOLVER_POTRS = 2,
    TRN_SOLVER_POTRI = 3,
    TRN_SOLVER_GETRF = 4,
    TRN_SOLVER_GETRS = 5,
    TRN_SOLVER_GEQRF = 6,
    TRN_SOLVER_ORGQR = 7, /* ungqr for complex types */
    TRN_SOLVER_ORMQR = 8, /* unmqr for complex types */
    TRN_SOLVER_POTRF_BATCHED = 16,
    TRN_SOLVER_POTRS_BATCHED = 17,
    TRN_SOLVER_SYEVD = 32, /* heevd */
    TRN_SOLVER_SYGVD = 33, /* hegvd */
    TRN_SOLVER_SYEVJ = 34, /* heevj */
    TRN_SOLVER_GESVD = 35,
    TRN_SOLVER_GESVDJ = 36,
    TRN_SOLVER_INV_SQRT_SPD = 48,
    TRN_SOLVER_SOLVE_SPD_IR = 49,
    TRN_SOLVER_GMRES_IR = 50,
    TRN_SOLVER_CG = 64,
    TRN_SOLVER_GMRES = 65,
    TRN_SOLVER_BICGSTAB = 66,
} trn_solver_fn;

/* The 16-byte record the iterative routines write into device memory
 * (trnsolverIterResult_t in the public API). */
typedef struct trn_solver_stats {
    int32_t iterations;
    int32_t status; /* TRN_SOLVER_ST_* */
    double residual;
} trn_solver_stats;

#define TRN_SOLVER_ST_CONVERGED 0
#define TRN_SOLVER_ST_MAX_ITERS 1
#define TRN_SOLVER_ST_BREAKDOWN 2
#define TRN_SOLVER_ST_NONFINITE 3
#define TRN_SOLVER_ST_FALLBACK 4 /* the FP32 factorisation could not be used */
#define TRN_SOLVER_ST_PRECOND 5  /* the preconditioner could not be set up */

/* Factorisations and solves. Dimensions are validated (>= 0, leading
 * dimensions >= max(1, rows)) and fit in int; unused pointers are NULL;
 * info is never NULL. */
typedef struct trn_solver_dense_desc {
    trn_solver_fn fn;
    trn_dtype type;
    int lower;       /* uplo: 1 lower, 0 upper */
    trn_trans trans; /* getrs, ormqr */
    int left;        /* ormqr: side */
    int m, n, k, nrhs;
    void *a;
    int lda;
    void *b; /* potrs, getrs: B; ormqr: C */
    int ldb;
    int32_t *ipiv; /* getrf, getrs; NULL: no pivoting */
    void *tau;     /* geqrf, orgqr, ormqr */
    int32_t *info;
} trn_solver_dense_desc;

/* potrfBatched / potrsBatched: batch matrices at a[i] (and b[i]). The
 * pointer arrays are owned by the op's references (daemon/validate.h). */
typedef struct trn_solver_batched_desc {
    trn_solver_fn fn;
    trn_dtype type;
    int lower;
    int n, nrhs;
    int lda, ldb;
    void *const *a;
    void *const *b;
    int32_t *info; /* potrf: batch entries; potrs: one */
    int batch;
} trn_solver_batched_desc;

/* Eigenvalue problems and SVDs. w (eigenvalues or singular values) is of
 * the type's real component. */
typedef struct trn_solver_eigen_desc {
    trn_solver_fn fn;
    trn_dtype type;
    int vectors; /* jobz */
    int lower;
    int itype;        /* sygvd */
    char jobu, jobvt; /* gesvd: 'A', 'S', 'O', 'N' */
    int econ;         /* gesvdj */
    int m, n;
    void *a;
    int lda;
    void *b; /* sygvd */
    int ldb;
    void *w;
    void *u;
    int ldu;
    void *v; /* gesvd: VT; gesvdj: V */
    int ldv;
    void *rwork; /* gesvd, may be NULL */
    int32_t *info;
    double tol;              /* syevj, gesvdj: > 0 */
    int max_sweeps;          /* syevj, gesvdj: > 0 */
    trn_solver_stats *stats; /* may be NULL */
} trn_solver_eigen_desc;

/* The trnsci extensions: inverse square root, mixed-precision refinement. */
typedef struct trn_solver_refine_desc {
    trn_solver_fn fn;
    trn_dtype type;
    int lower;
    int n, nrhs;
    const void *a;
    int lda;
    const void *b;
    int ldb;
    void *x;
    int ldx;
    double tol;              /* > 0 */
    int max_iters;           /* > 0 */
    int restart;             /* GMRES_IR: > 0 */
    trn_solver_stats *stats; /* may be NULL */
    int32_t *info;           /* SOLVE_SPD_IR, GMRES_IR */
} trn_solver_refine_desc;

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
    TRN_SP_BSR = 6,
} trn_sp_format;

typedef struct trn_sp_mat {
    trn_sp_format format;
    trn_dtype type;       /* R32F or R64F */
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
} trn_sp_mat;

/* The operator of a Krylov solver: a dense matrix or a trnsparse CSR / BSR
 * matrix (square, n x n elements, of the solver's type). The solvers reach
 * it only through kernels/cpu/solver_linop.c; a sparse operator's offsets
 * and indices are client memory, checked by the kernel (trn_sp_mat). */
typedef enum trn_linop_kind {
    TRN_LINOP_DENSE = 1,
    TRN_LINOP_SPARSE = 2,
} trn_linop_kind;

typedef struct trn_linop {
    trn_linop_kind kind;
    int n;
    const void *a; /* dense: n x n, column-major */
    int lda;
    trn_sp_mat sp; /* sparse: CSR or BSR */
} trn_linop;

typedef enum trn_precond_kind {
    TRN_PRECOND_NONE = 0,
    TRN_PRECOND_JACOBI = 1,
    TRN_PRECOND_BLOCK_JACOBI = 2,
    TRN_PRECOND_SSOR = 3,
} trn_precond_kind;

/* CG, GMRES(restart), BiCGStab on op: x (initial guess in, solution out). */
typedef struct trn_solver_krylov_desc {
    trn_solver_fn fn;
    trn_dtype type; /* R32F or R64F */
    trn_linop op;
    const void *b;
    void *x;
    double tol;    /* > 0 */
    int max_iters; /* >= 0 */
    int restart;   /* GMRES: 1 .. n */
    trn_precond_kind precond;
    int block_size;          /* BLOCK_JACOBI: 1 .. n */
    double omega;            /* SSOR: (0, 2) */
    trn_solver_stats *stats; /* may be NULL */
} trn_solver_krylov_desc;

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
    trn_sp_mat a;
    trn_dn_mat b, c;
    const void *row_bounds, *col_bounds;
    double threshold;
} trn_spmm_desc;

/* C = alpha A B for CSR A, B, C (op N). count: write C's row offsets,
 * 0-based int64, into counts (a.rows + 1); else fill C, reading counts back
 * (checked against what the product has: client memory). */
typedef struct trn_spgemm_desc {
    int fill;
    double alpha;
    trn_sp_mat a, b, c; /* c: fill only */
    void *counts;
} trn_spgemm_desc;

/* C = alpha (A B) o spy(C) + beta C: a is m x k, b k x n (ops folded into
 * their layouts), c CSR m x n. beta = 0: C's values are not read. */
typedef struct trn_sddmm_desc {
    double alpha, beta;
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

/* trntensor's fused chemistry kernels (trnsci extensions; the layouts are
 * the wire's AoToMoOp / Mp2EnergyOp). Sizes fit in int; block sizes are
 * chosen by the validator from the sizes alone, so every shard count runs
 * the same library calls on the same blocks and the results are bitwise
 * the same. */

/* B[i,a,P] = sum_{mu,nu} Cocc[mu,i] Cvir[nu,a] (P|mu nu), P in blocks of
 * p_block (the last may be shorter): per block one GEMM (the half
 * transformation, scratch of nbf * p_block * nocc elements) and one GEMM
 * per occupied orbital. Shards take whole blocks. Pointers are NULL when
 * the op has nothing to read (nbf = 0: B is cleared). */
typedef struct trn_ao_to_mo_desc {
    trn_dtype type; /* R32F or R64F */
    int nbf, nocc, nvir, naux;
    const void *c_occ;
    int ld_c_occ;
    const void *c_vir;
    int ld_c_vir;
    const void *lpq;
    void *b;
    int p_block;
} trn_ao_to_mo_desc;

/* What the shards of an Mp2Energy op share (a heap block the validator
 * makes): per occupied orbital i the Neumaier pair (sum, compensation) of
 * sum_{j <= i} w_ij e_ij, and how many shards have finished. The shard that
 * finishes last adds the pairs in the order of i and writes the energy. */
typedef struct trn_mp2_partials {
    atomic_int shards_done;
    double pair[]; /* 2 * nocc */
} trn_mp2_partials;

/* The DF-MP2 energy from B (layout of trn_ao_to_mo_desc's output). Shards
 * take ranges of i (balanced by the i + 1 pairs (i, j <= i) each has);
 * for each i, j runs in chunks of j_block orbitals, one GEMM per chunk
 * (scratch of nvir * nvir * j_block elements). eps_occ / eps_vir are
 * float64; each shard copies them before use and fails (bad input) unless
 * every e_a - e_i > 0. energy: one float64. */
typedef struct trn_mp2_energy_desc {
    trn_dtype type; /* of B: R32F or R64F */
    int nocc, nvir, naux;
    const void *b;
    const double *eps_occ, *eps_vir;
    double *energy;
    int j_block;
    trn_mp2_partials *partials;
} trn_mp2_energy_desc;

/* Status of running a descriptor (kernels return these). */
typedef enum trn_kstatus {
    TRN_KSTATUS_OK = 0,
    TRN_KSTATUS_UNSUPPORTED = 1, /* the backend has no kernel for this op */
    TRN_KSTATUS_FAILED = 2,      /* the kernel itself reported failure */
    TRN_KSTATUS_NO_MEMORY = 3,   /* the kernel could not allocate its workspace */
} trn_kstatus;

/* Why a kernel failed, in words, for the client (the next synchronize
 * reports it instead of a generic "failed in the compute backend"). Every
 * shard of an op shares one; when several post, the lowest rank wins (e.g.
 * the first bad row), so the message does not depend on timing. The
 * scheduler initialises it when the op is submitted and points each stage's
 * descriptor at it; the service reads it after the op's last shard. */
#define TRN_KMSG_LEN 200 /* fits the session's 256-byte async message with its prefix */
typedef struct trn_kmsg {
    atomic_int busy; /* a poster is writing */
    int set;
    int bad_input; /* the op's input data broke a rule: INVALID_ARGUMENT */
    uint64_t rank;
    char text[TRN_KMSG_LEN];
} trn_kmsg;

void trn_kmsg_init(trn_kmsg *m);
/* Records text (printf format) unless a message of lower or equal rank is
 * there already. bad_input: the failure is the caller's data (the client
 * sees trnsciErrorInvalidValue), not the backend. Safe to call from several
 * shards at once. */
void trn_kmsg_post(trn_kmsg *m, uint64_t rank, int bad_input, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Messages about memory rank above every position a bad-input message can
 * name, so that when one shard finds bad input and another runs out of
 * memory, the client is told about its input (which retrying cannot fix).
 * A shard adds its index: the lowest shard's message wins, whatever the
 * timing. */
#define TRN_KMSG_RANK_NO_MEMORY (UINT64_C(1) << 62)

/* A kernel's workspace allocation failed: posts "the daemon is out of
 * memory for its workspace: <bytes> bytes for <what> could not be
 * allocated" (what: printf format) at rank TRN_KMSG_RANK_NO_MEMORY + shard,
 * not as bad input, and returns TRN_KSTATUS_NO_MEMORY. m may be NULL. */
trn_kstatus trn_kmsg_no_memory(trn_kmsg *m, int shard, size_t bytes, const char *what, ...)
    __attribute__((format(printf, 4, 5)));

typedef struct trn_op_desc {
    trn_op_kind kind;
    union {
        trn_memset_desc memset;
        trn_copy_desc copy;
        trn_gemm_desc gemm;
        trn_blas1_desc blas1;
        trn_blas2_desc blas2;
        trn_blas3_desc blas3;
        trn_fft_desc fft;
        trn_rand_desc rand;
        trn_solver_dense_desc solver_dense;
        trn_solver_batched_desc solver_batched;
        trn_solver_eigen_desc solver_eigen;
        trn_solver_refine_desc solver_refine;
        trn_solver_krylov_desc solver_krylov;
        trn_spmm_desc spmm; /* TRN_OP_SPMV, TRN_OP_SPMM */
        trn_spconvert_desc spconvert;
        trn_spgemm_desc spgemm;
        trn_sddmm_desc sddmm;
        trn_attn_desc attn;
        trn_schwarz_desc schwarz;
        trn_tensor_contract_desc tensor_contract;
        trn_tensor_ew_desc tensor_ew; /* TRN_OP_TENSOR_ELEMENTWISE, _REDUCTION */
        trn_ao_to_mo_desc ao_to_mo;
        trn_mp2_energy_desc mp2_energy;
    } u;
    /* Where the kernel explains a failure (set by the scheduler; NULL when
     * the op is run outside one). */
    trn_kmsg *kmsg;
} trn_op_desc;

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
 * (columns for CSC); the others one shard. */
trn_sp_split trn_spconvert_split(const trn_spconvert_desc *d, int64_t *parts);
/* Any trnsparse op (TRN_OP_SP*, SDDMM, SCHWARZ): its split kind and most
 * shards; the scheduler shards it by trn_op_cost / TRN_SHARD_SPARSE_MIN_COST
 * up to *parts. SpGEMM's count pass is one shard (a prefix sum), its fill
 * splits A's rows by C's entries; SDDMM splits C's rows by entries;
 * attention splits the (batch entry, block row) pairs evenly; Schwarz
 * bounds are one shard. Returns -1 for a kind that is not sparse. */
int trn_sparse_split(const trn_op_desc *d, trn_sp_split *split, int64_t *parts);

/* Estimated cost in floating-point operations (or bytes touched for data
 * movement); what the scheduler shards and shares cores by. */
double trn_op_cost(const trn_op_desc *op);

/* The name of a trnsolver routine as cuSOLVER spells it for the type
 * ("potrf", "heevd" for a complex syevd, "cg", ...). */
const char *trn_solver_name(trn_solver_fn fn, trn_dtype type);
/* The same for a trnsolver op (NULL for other kinds). */
const char *trn_solver_op_name(const trn_op_desc *op);

#endif
