/*
 * trnblas.h — dense linear algebra (the cuBLAS v2 analog).
 *
 * Matrices are column-major with leading dimensions, as in cuBLAS and LAPACK.
 * Scalars (alpha, beta, c, s) are host pointers read during the call, or, in
 * device pointer mode (trnblasSetPointerMode), device pointers read when the
 * op runs.
 * Routines are asynchronous with respect to the host: they return once the
 * daemon has validated and queued the op on the handle's stream; invalid
 * arguments are reported at once. Level 1 reductions (dot, nrm2, asum,
 * i?amax, i?amin) in host pointer mode wait for the handle's stream and
 * return the value in host memory, as cuBLAS does; in device pointer mode the
 * result is a device pointer written in stream order. A handle is not for
 * concurrent use by several threads (host-mode results go through one
 * scratch buffer).
 */
#ifndef TRNSCI_TRNBLAS_H
#define TRNSCI_TRNBLAS_H

#include <trnsci/trn_complex.h>
#include <trnsci/trn_fp16.h>
#include <trnsci/trnsci.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Values are those of cublasStatus_t. */
typedef enum trnblasStatus_t {
    TRNBLAS_STATUS_SUCCESS = 0,
    TRNBLAS_STATUS_NOT_INITIALIZED = 1, /* no daemon reachable */
    TRNBLAS_STATUS_ALLOC_FAILED = 3,
    TRNBLAS_STATUS_INVALID_VALUE = 7,
    TRNBLAS_STATUS_ARCH_MISMATCH = 8,
    TRNBLAS_STATUS_MAPPING_ERROR = 11,
    TRNBLAS_STATUS_EXECUTION_FAILED = 13,
    TRNBLAS_STATUS_INTERNAL_ERROR = 14,
    TRNBLAS_STATUS_NOT_SUPPORTED = 15,
    TRNBLAS_STATUS_LICENSE_ERROR = 16,
} trnblasStatus_t;

typedef enum trnblasOperation_t {
    TRNBLAS_OP_N = 0,
    TRNBLAS_OP_T = 1,
    TRNBLAS_OP_C = 2,
} trnblasOperation_t;

/* Values are those of cublasFillMode_t, cublasDiagType_t and cublasSideMode_t.
 * No BLAS routine takes TRNBLAS_FILL_MODE_FULL (TRNBLAS_STATUS_INVALID_VALUE);
 * trnsolver uses the fill and side modes too. */
typedef enum trnblasFillMode_t {
    TRNBLAS_FILL_MODE_LOWER = 0,
    TRNBLAS_FILL_MODE_UPPER = 1,
    TRNBLAS_FILL_MODE_FULL = 2,
} trnblasFillMode_t;

typedef enum trnblasDiagType_t {
    TRNBLAS_DIAG_NON_UNIT = 0,
    TRNBLAS_DIAG_UNIT = 1,
} trnblasDiagType_t;

typedef enum trnblasSideMode_t {
    TRNBLAS_SIDE_LEFT = 0,
    TRNBLAS_SIDE_RIGHT = 1,
} trnblasSideMode_t;

/* Values are those of cublasPointerMode_t. */
typedef enum trnblasPointerMode_t {
    TRNBLAS_POINTER_MODE_HOST = 0,
    TRNBLAS_POINTER_MODE_DEVICE = 1,
} trnblasPointerMode_t;

/* Values are those of cublasMath_t. A mode (DEFAULT .. FP32_EMULATED_BF16X9)
 * may be combined with the flags FP64_EMULATED_FIXEDPOINT,
 * DISALLOW_REDUCED_PRECISION_REDUCTION and the trnsci extension flags.
 * What each does is stated with the routines it affects. */
typedef enum trnblasMath_t {
    TRNBLAS_DEFAULT_MATH = 0,
    TRNBLAS_TENSOR_OP_MATH = 1,                /* deprecated in cuBLAS: same as DEFAULT */
    TRNBLAS_PEDANTIC_MATH = 2,                 /* GEMMs compute in their data type's precision */
    TRNBLAS_TF32_TENSOR_OP_MATH = 3,           /* S/C GEMMs use COMPUTE_32F_FAST_TF32 */
    TRNBLAS_FP32_EMULATED_BF16X9_MATH = 4,     /* S/C GEMMs use COMPUTE_32F_EMULATED_16BFX9 */
    TRNBLAS_FP64_EMULATED_FIXEDPOINT_MATH = 8, /* D/Z GEMMs use COMPUTE_64F_EMULATED */
    /* Accepted; accumulation is always in the compute type's precision. */
    TRNBLAS_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION = 16,
    /* trnsci extension flags: */
    /* dot/dotu/dotc, nrm2 and asum accumulate with compensation
     * (docs/numerics.md, "Compensated reductions"). */
    TRNBLAS_COMPENSATED_REDUCTION_MATH = 0x100,
    /* FAST_16BF and FAST_TF32 round their inputs stochastically, reproducibly
     * from the handle's seed (trnblasSetStochasticRoundingSeed). */
    TRNBLAS_STOCHASTIC_ROUNDING_MATH = 0x200,
} trnblasMath_t;

/* Values are those of cublasComputeType_t, plus trnsci extensions. What
 * each computes and the error it gives is in docs/numerics.md
 * ("Precision modes"). */
typedef enum trnblasComputeType_t {
    TRNBLAS_COMPUTE_16F = 64,                 /* R_16F data: FP32 sums, one rounding to half */
    TRNBLAS_COMPUTE_16F_PEDANTIC = 65,        /* the same */
    TRNBLAS_COMPUTE_32F = 68,                 /* FP32 (the math mode may change it) */
    TRNBLAS_COMPUTE_32F_PEDANTIC = 69,        /* FP32, whatever the math mode */
    TRNBLAS_COMPUTE_32F_FAST_16F = 74,        /* inputs rounded to binary16, FP32 accumulation */
    TRNBLAS_COMPUTE_32F_FAST_16BF = 75,       /* inputs rounded to bfloat16, FP32 accumulation:
                                                 the Trainium Tensor Engine's path */
    TRNBLAS_COMPUTE_32F_FAST_TF32 = 77,       /* inputs rounded to TF32, FP32 accumulation */
    TRNBLAS_COMPUTE_32F_EMULATED_16BFX9 = 78, /* FP32 accuracy from 9 bfloat16 products */
    TRNBLAS_COMPUTE_64F = 70,
    TRNBLAS_COMPUTE_64F_PEDANTIC = 71,
    TRNBLAS_COMPUTE_64F_EMULATED_FIXEDPOINT = 79, /* FP64 accuracy from exact FP32 products */
    TRNBLAS_COMPUTE_32I = 72,                     /* R_8I A, B; R_32I C: int32 modulo 2^32 */
    TRNBLAS_COMPUTE_32I_PEDANTIC = 73,            /* the same */
    /* trnsci extensions: */
    /* each FP32 value split into bfloat16 hi + lo, three products (hi hi,
     * hi lo, lo hi) accumulated in FP32 */
    TRNBLAS_COMPUTE_32F_BF16X3 = 1075,
    /* FP64 from FP32 arithmetic: the same as 64F_EMULATED_FIXEDPOINT */
    TRNBLAS_COMPUTE_64F_EMULATED = TRNBLAS_COMPUTE_64F_EMULATED_FIXEDPOINT,
} trnblasComputeType_t;

/* Values are those of cublasGemmAlgo_t. Accepted and ignored: the daemon
 * picks the algorithm. */
typedef enum trnblasGemmAlgo_t {
    TRNBLAS_GEMM_DEFAULT = -1,
    TRNBLAS_GEMM_DFALT = -1,
    TRNBLAS_GEMM_ALGO0 = 0,
    TRNBLAS_GEMM_ALGO1 = 1,
    TRNBLAS_GEMM_ALGO2 = 2,
    TRNBLAS_GEMM_ALGO3 = 3,
    TRNBLAS_GEMM_ALGO4 = 4,
    TRNBLAS_GEMM_ALGO5 = 5,
    TRNBLAS_GEMM_ALGO6 = 6,
    TRNBLAS_GEMM_ALGO7 = 7,
    TRNBLAS_GEMM_ALGO8 = 8,
    TRNBLAS_GEMM_ALGO9 = 9,
    TRNBLAS_GEMM_ALGO10 = 10,
    TRNBLAS_GEMM_ALGO11 = 11,
    TRNBLAS_GEMM_ALGO12 = 12,
    TRNBLAS_GEMM_ALGO13 = 13,
    TRNBLAS_GEMM_ALGO14 = 14,
    TRNBLAS_GEMM_ALGO15 = 15,
    TRNBLAS_GEMM_ALGO16 = 16,
    TRNBLAS_GEMM_ALGO17 = 17,
    TRNBLAS_GEMM_ALGO18 = 18,
    TRNBLAS_GEMM_ALGO19 = 19,
    TRNBLAS_GEMM_ALGO20 = 20,
    TRNBLAS_GEMM_ALGO21 = 21,
    TRNBLAS_GEMM_ALGO22 = 22,
    TRNBLAS_GEMM_ALGO23 = 23,
    TRNBLAS_GEMM_DEFAULT_TENSOR_OP = 99,
    TRNBLAS_GEMM_DFALT_TENSOR_OP = 99,
    TRNBLAS_GEMM_ALGO0_TENSOR_OP = 100,
    TRNBLAS_GEMM_ALGO1_TENSOR_OP = 101,
    TRNBLAS_GEMM_ALGO2_TENSOR_OP = 102,
    TRNBLAS_GEMM_ALGO3_TENSOR_OP = 103,
    TRNBLAS_GEMM_ALGO4_TENSOR_OP = 104,
    TRNBLAS_GEMM_ALGO5_TENSOR_OP = 105,
    TRNBLAS_GEMM_ALGO6_TENSOR_OP = 106,
    TRNBLAS_GEMM_ALGO7_TENSOR_OP = 107,
    TRNBLAS_GEMM_ALGO8_TENSOR_OP = 108,
    TRNBLAS_GEMM_ALGO9_TENSOR_OP = 109,
    TRNBLAS_GEMM_ALGO10_TENSOR_OP = 110,
    TRNBLAS_GEMM_ALGO11_TENSOR_OP = 111,
    TRNBLAS_GEMM_ALGO12_TENSOR_OP = 112,
    TRNBLAS_GEMM_ALGO13_TENSOR_OP = 113,
    TRNBLAS_GEMM_ALGO14_TENSOR_OP = 114,
    TRNBLAS_GEMM_ALGO15_TENSOR_OP = 115,
    TRNBLAS_GEMM_AUTOTUNE = 999, /* accepted too: nothing to tune */
} trnblasGemmAlgo_t;

/* Values are those of cublasAtomicsMode_t. Recorded per handle; no routine
 * here uses atomics (every result is the same whatever the mode). */
typedef enum trnblasAtomicsMode_t {
    TRNBLAS_ATOMICS_NOT_ALLOWED = 0, /* the default */
    TRNBLAS_ATOMICS_ALLOWED = 1,
} trnblasAtomicsMode_t;

/* Values are those of cublasEmulationStrategy_t (and of
 * trnsciEmulationStrategy_t). trnblas has no speed heuristic: every
 * strategy gives a GEMM the compute type its math mode and computeType
 * select, which is emulated whenever they allow emulation (what EAGER
 * asks for); docs/rosetta.md, "trnblas". */
typedef enum trnblasEmulationStrategy_t {
    TRNBLAS_EMULATION_STRATEGY_DEFAULT = 0,    /* the default: PERFORMANT */
    TRNBLAS_EMULATION_STRATEGY_PERFORMANT = 1, /* emulate where cuBLAS finds it faster */
    TRNBLAS_EMULATION_STRATEGY_EAGER = 2,      /* emulate wherever it is allowed */
} trnblasEmulationStrategy_t;

typedef struct trnblasContext *trnblasHandle_t;

/* Creates a handle bound to the default stream. Initialises the runtime. */
trnblasStatus_t trnblasCreate(trnblasHandle_t *handle);
trnblasStatus_t trnblasDestroy(trnblasHandle_t handle);
trnblasStatus_t trnblasSetStream(trnblasHandle_t handle, trnsciStream_t streamId);
trnblasStatus_t trnblasGetStream(trnblasHandle_t handle, trnsciStream_t *streamId);
trnblasStatus_t trnblasSetPointerMode(trnblasHandle_t handle, trnblasPointerMode_t mode);
trnblasStatus_t trnblasGetPointerMode(trnblasHandle_t handle, trnblasPointerMode_t *mode);
/* The math mode (trnblasMath_t: a mode OR'ed with flags); an unknown mode
 * or flag is TRNBLAS_STATUS_INVALID_VALUE. */
trnblasStatus_t trnblasSetMathMode(trnblasHandle_t handle, trnblasMath_t mode);
trnblasStatus_t trnblasGetMathMode(trnblasHandle_t handle, trnblasMath_t *mode);
/* trnsci extension: the seed of stochastic rounding (default 0). The random
 * bits of an element are a function of the seed, the matrix of the batch,
 * the operand and the element's position only, so a call repeated with the
 * same seed gives the same bits on any number of cores. */
trnblasStatus_t trnblasSetStochasticRoundingSeed(trnblasHandle_t handle, unsigned long long seed);
trnblasStatus_t trnblasGetStochasticRoundingSeed(trnblasHandle_t handle, unsigned long long *seed);
/* Library version, encoded as cublasGetVersion's: major*10000 + minor*100 + patch. */
trnblasStatus_t trnblasGetVersion(trnblasHandle_t handle, int *version);
/* Name of a status code; never NULL. */
const char *trnblasGetStatusName(trnblasStatus_t status);
const char *trnblasGetStatusString(trnblasStatus_t status);
/* Part of the library's version (TRNSCI_VERSION_MAJOR, _MINOR, _PATCH);
 * TRNBLAS_STATUS_INVALID_VALUE for an unknown type or a NULL value. */
trnblasStatus_t trnblasGetProperty(trnsciLibraryPropertyType type, int *value);
/* A user-owned device workspace (cublasSetWorkspace): it must lie in one
 * trnsci allocation and be aligned to 256 bytes (INVALID_VALUE otherwise);
 * size 0 or NULL restores the default, as does trnblasSetStream. The
 * daemon's kernels need no workspace: it is recorded and not used. */
trnblasStatus_t trnblasSetWorkspace(trnblasHandle_t handle, void *workspace,
                                    size_t workspaceSizeInBytes);
/* The atomics mode (INVALID_VALUE for a value that is not one of the enum). */
trnblasStatus_t trnblasSetAtomicsMode(trnblasHandle_t handle, trnblasAtomicsMode_t mode);
trnblasStatus_t trnblasGetAtomicsMode(trnblasHandle_t handle, trnblasAtomicsMode_t *mode);

/* ---- Floating-point emulation controls (cuBLAS 13) -------------------------
 * Per-handle settings; a NULL handle is TRNBLAS_STATUS_NOT_INITIALIZED, a
 * NULL output pointer TRNBLAS_STATUS_INVALID_VALUE. They matter only for
 * GEMMs that run emulated: COMPUTE_32F_EMULATED_16BFX9 (math mode
 * FP32_EMULATED_BF16X9_MATH or that computeType) and
 * COMPUTE_64F_EMULATED_FIXEDPOINT (the FP64_EMULATED_FIXEDPOINT_MATH flag or
 * that computeType). What trnblas computes under each is in docs/rosetta.md,
 * "trnblas". */
/* The emulation strategy (default DEFAULT); a value outside the enum is
 * INVALID_VALUE. No strategy changes a GEMM's compute type. */
trnblasStatus_t trnblasSetEmulationStrategy(trnblasHandle_t handle,
                                            trnblasEmulationStrategy_t emulationStrategy);
trnblasStatus_t trnblasGetEmulationStrategy(trnblasHandle_t handle,
                                            trnblasEmulationStrategy_t *emulationStrategy);
/* The special values emulation must propagate (default
 * TRNSCI_EMULATION_SPECIAL_VALUES_SUPPORT_DEFAULT); any mask is accepted
 * and recorded. */
trnblasStatus_t trnblasSetEmulationSpecialValuesSupport(trnblasHandle_t handle,
                                                        trnsciEmulationSpecialValuesSupport mask);
trnblasStatus_t trnblasGetEmulationSpecialValuesSupport(trnblasHandle_t handle,
                                                        trnsciEmulationSpecialValuesSupport *mask);
/* Fixed-point FP64 emulation: how the mantissa bit count is chosen
 * (default DYNAMIC; a value outside the enum is INVALID_VALUE). */
trnblasStatus_t
trnblasSetFixedPointEmulationMantissaControl(trnblasHandle_t handle,
                                             trnsciEmulationMantissaControl mantissaControl);
trnblasStatus_t
trnblasGetFixedPointEmulationMantissaControl(trnblasHandle_t handle,
                                             trnsciEmulationMantissaControl *mantissaControl);
/* The maximum number of mantissa bits (0, the default, restores the default
 * configuration; negative is INVALID_VALUE). Recorded: trnblas's emulation
 * always keeps TRNBLAS_EMULATION_FIXEDPOINT_MANTISSA_BITS bits. */
trnblasStatus_t trnblasSetFixedPointEmulationMaxMantissaBitCount(trnblasHandle_t handle,
                                                                 int maxMantissaBitCount);
trnblasStatus_t trnblasGetFixedPointEmulationMaxMantissaBitCount(trnblasHandle_t handle,
                                                                 int *maxMantissaBitCount);
/* The mantissa bit offset of DYNAMIC control (default 0; any value is
 * accepted). Recorded; as in cuBLAS, a GEMM that runs FP64-emulated while
 * the offset is not 0 and the control is FIXED returns INVALID_VALUE. */
trnblasStatus_t trnblasSetFixedPointEmulationMantissaBitOffset(trnblasHandle_t handle,
                                                               int mantissaBitOffset);
trnblasStatus_t trnblasGetFixedPointEmulationMantissaBitOffset(trnblasHandle_t handle,
                                                               int *mantissaBitOffset);
/* A device int (or NULL, the default: none) into which every GEMM that runs
 * FP64-emulated writes, in stream order after its result, the number of
 * mantissa bits it used: TRNBLAS_EMULATION_FIXEDPOINT_MANTISSA_BITS. The
 * pointer is checked when a GEMM writes it. */
trnblasStatus_t trnblasSetFixedPointEmulationMantissaBitCountPointer(trnblasHandle_t handle,
                                                                     int *mantissaBitCount);
trnblasStatus_t trnblasGetFixedPointEmulationMantissaBitCountPointer(trnblasHandle_t handle,
                                                                     int **mantissaBitCount);
/* trnsci: the mantissa bits of trnblas's FP64 emulation, whatever the
 * settings above: 8 digits of 7 bits (docs/numerics.md, "Emulated FP64"). */
#define TRNBLAS_EMULATION_FIXEDPOINT_MANTISSA_BITS 56

/* ---- Host <-> device copies (cublasSetMatrix, ...) ------------------------
 * Column-major matrices of rows x cols elements of elemSize bytes: column j
 * of A at A + j*lda*elemSize, of B at B + j*ldb*elemSize. Set copies host A
 * to device B, Get device A to host B; bytes of B between its columns are
 * not written. Vectors: n elements, element i of x at x + i*incx*elemSize
 * and of y at y + i*incy*elemSize. TRNBLAS_STATUS_INVALID_VALUE when rows
 * or cols < 0, or elemSize, lda, ldb, incx or incy <= 0 (n <= 0 copies
 * nothing); TRNBLAS_STATUS_MAPPING_ERROR when the device operand is not
 * inside one trnsci allocation. The plain forms are ordered and complete
 * as trnsciMemcpy; the Async forms are ordered on stream as
 * trnsciMemcpyAsync (host memory is pageable memory: a Get's host data is
 * there once a synchronising call covers it). Over gRPC a strided copy is
 * one request per column (per element for a vector with inc > 1). */
trnblasStatus_t trnblasSetMatrix(int rows, int cols, int elemSize, const void *A, int lda, void *B,
                                 int ldb);
trnblasStatus_t trnblasGetMatrix(int rows, int cols, int elemSize, const void *A, int lda, void *B,
                                 int ldb);
trnblasStatus_t trnblasSetMatrixAsync(int rows, int cols, int elemSize, const void *A, int lda,
                                      void *B, int ldb, trnsciStream_t stream);
trnblasStatus_t trnblasGetMatrixAsync(int rows, int cols, int elemSize, const void *A, int lda,
                                      void *B, int ldb, trnsciStream_t stream);
trnblasStatus_t trnblasSetVector(int n, int elemSize, const void *x, int incx, void *devicePtr,
                                 int incy);
trnblasStatus_t trnblasGetVector(int n, int elemSize, const void *x, int incx, void *y, int incy);
trnblasStatus_t trnblasSetVectorAsync(int n, int elemSize, const void *hostPtr, int incx,
                                      void *devicePtr, int incy, trnsciStream_t stream);
trnblasStatus_t trnblasGetVectorAsync(int n, int elemSize, const void *devicePtr, int incx,
                                      void *hostPtr, int incy, trnsciStream_t stream);

/* ---- Level 1 (cuBLAS v2 parameter lists) --------------------------------
 * n <= 0 does nothing (reductions give 0). A vector with increment inc spans
 * |inc|*(n-1)+1 elements from its pointer; with inc < 0 it is traversed from
 * its last element, as in reference BLAS. scal, nrm2, asum, i?amax and i?amin
 * do nothing (result 0) when incx <= 0. i?amax/i?amin return a 1-based index
 * of the first extreme |re| + |im|. */

trnblasStatus_t trnblasSaxpy(trnblasHandle_t handle, int n, const float *alpha, const float *x,
                             int incx, float *y, int incy);
trnblasStatus_t trnblasDaxpy(trnblasHandle_t handle, int n, const double *alpha, const double *x,
                             int incx, double *y, int incy);
trnblasStatus_t trnblasCaxpy(trnblasHandle_t handle, int n, const trnComplex *alpha,
                             const trnComplex *x, int incx, trnComplex *y, int incy);
trnblasStatus_t trnblasZaxpy(trnblasHandle_t handle, int n, const trnDoubleComplex *alpha,
                             const trnDoubleComplex *x, int incx, trnDoubleComplex *y, int incy);
trnblasStatus_t trnblasSscal(trnblasHandle_t handle, int n, const float *alpha, float *x, int incx);
trnblasStatus_t trnblasDscal(trnblasHandle_t handle, int n, const double *alpha, double *x,
                             int incx);
trnblasStatus_t trnblasCscal(trnblasHandle_t handle, int n, const trnComplex *alpha, trnComplex *x,
                             int incx);
trnblasStatus_t trnblasZscal(trnblasHandle_t handle, int n, const trnDoubleComplex *alpha,
                             trnDoubleComplex *x, int incx);
trnblasStatus_t trnblasCsscal(trnblasHandle_t handle, int n, const float *alpha, trnComplex *x,
                              int incx);
trnblasStatus_t trnblasZdscal(trnblasHandle_t handle, int n, const double *alpha,
                              trnDoubleComplex *x, int incx);
trnblasStatus_t trnblasScopy(trnblasHandle_t handle, int n, const float *x, int incx, float *y,
                             int incy);
trnblasStatus_t trnblasDcopy(trnblasHandle_t handle, int n, const double *x, int incx, double *y,
                             int incy);
trnblasStatus_t trnblasCcopy(trnblasHandle_t handle, int n, const trnComplex *x, int incx,
                             trnComplex *y, int incy);
trnblasStatus_t trnblasZcopy(trnblasHandle_t handle, int n, const trnDoubleComplex *x, int incx,
                             trnDoubleComplex *y, int incy);
trnblasStatus_t trnblasSswap(trnblasHandle_t handle, int n, float *x, int incx, float *y, int incy);
trnblasStatus_t trnblasDswap(trnblasHandle_t handle, int n, double *x, int incx, double *y,
                             int incy);
trnblasStatus_t trnblasCswap(trnblasHandle_t handle, int n, trnComplex *x, int incx, trnComplex *y,
                             int incy);
trnblasStatus_t trnblasZswap(trnblasHandle_t handle, int n, trnDoubleComplex *x, int incx,
                             trnDoubleComplex *y, int incy);
trnblasStatus_t trnblasSdot(trnblasHandle_t handle, int n, const float *x, int incx, const float *y,
                            int incy, float *result);
trnblasStatus_t trnblasDdot(trnblasHandle_t handle, int n, const double *x, int incx,
                            const double *y, int incy, double *result);
trnblasStatus_t trnblasCdotu(trnblasHandle_t handle, int n, const trnComplex *x, int incx,
                             const trnComplex *y, int incy, trnComplex *result);
trnblasStatus_t trnblasCdotc(trnblasHandle_t handle, int n, const trnComplex *x, int incx,
                             const trnComplex *y, int incy, trnComplex *result);
trnblasStatus_t trnblasZdotu(trnblasHandle_t handle, int n, const trnDoubleComplex *x, int incx,
                             const trnDoubleComplex *y, int incy, trnDoubleComplex *result);
trnblasStatus_t trnblasZdotc(trnblasHandle_t handle, int n, const trnDoubleComplex *x, int incx,
                             const trnDoubleComplex *y, int incy, trnDoubleComplex *result);
trnblasStatus_t trnblasSnrm2(trnblasHandle_t handle, int n, const float *x, int incx,
                             float *result);
trnblasStatus_t trnblasDnrm2(trnblasHandle_t handle, int n, const double *x, int incx,
                             double *result);
trnblasStatus_t trnblasScnrm2(trnblasHandle_t handle, int n, const trnComplex *x, int incx,
                              float *result);
trnblasStatus_t trnblasDznrm2(trnblasHandle_t handle, int n, const trnDoubleComplex *x, int incx,
                              double *result);
trnblasStatus_t trnblasSasum(trnblasHandle_t handle, int n, const float *x, int incx,
                             float *result);
trnblasStatus_t trnblasDasum(trnblasHandle_t handle, int n, const double *x, int incx,
                             double *result);
trnblasStatus_t trnblasScasum(trnblasHandle_t handle, int n, const trnComplex *x, int incx,
                              float *result);
trnblasStatus_t trnblasDzasum(trnblasHandle_t handle, int n, const trnDoubleComplex *x, int incx,
                              double *result);
trnblasStatus_t trnblasIsamax(trnblasHandle_t handle, int n, const float *x, int incx, int *result);
trnblasStatus_t trnblasIdamax(trnblasHandle_t handle, int n, const double *x, int incx,
                              int *result);
trnblasStatus_t trnblasIcamax(trnblasHandle_t handle, int n, const trnComplex *x, int incx,
                              int *result);
trnblasStatus_t trnblasIzamax(trnblasHandle_t handle, int n, const trnDoubleComplex *x, int incx,
                              int *result);
trnblasStatus_t trnblasIsamin(trnblasHandle_t handle, int n, const float *x, int incx, int *result);
trnblasStatus_t trnblasIdamin(trnblasHandle_t handle, int n, const double *x, int incx,
                              int *result);
trnblasStatus_t trnblasIcamin(trnblasHandle_t handle, int n, const trnComplex *x, int incx,
                              int *result);
trnblasStatus_t trnblasIzamin(trnblasHandle_t handle, int n, const trnDoubleComplex *x, int incx,
                              int *result);
/* x := c x + s y, y := c y - conj(s) x (s real for S, D, Cs, Zd). */
trnblasStatus_t trnblasSrot(trnblasHandle_t handle, int n, float *x, int incx, float *y, int incy,
                            const float *c, const float *s);
trnblasStatus_t trnblasDrot(trnblasHandle_t handle, int n, double *x, int incx, double *y, int incy,
                            const double *c, const double *s);
trnblasStatus_t trnblasCrot(trnblasHandle_t handle, int n, trnComplex *x, int incx, trnComplex *y,
                            int incy, const float *c, const trnComplex *s);
trnblasStatus_t trnblasZrot(trnblasHandle_t handle, int n, trnDoubleComplex *x, int incx,
                            trnDoubleComplex *y, int incy, const double *c,
                            const trnDoubleComplex *s);
trnblasStatus_t trnblasCsrot(trnblasHandle_t handle, int n, trnComplex *x, int incx, trnComplex *y,
                             int incy, const float *c, const float *s);
trnblasStatus_t trnblasZdrot(trnblasHandle_t handle, int n, trnDoubleComplex *x, int incx,
                             trnDoubleComplex *y, int incy, const double *c, const double *s);
/* Constructs the Givens rotation [c s; -conj(s) c] that zeros b (reference
 * BLAS's rotg): real types overwrite a with r and b with z (s when |a| >
 * |b|, 1/c when c != 0, else 1); complex types overwrite a with r, and a = 0
 * gives c = 0, s = 1, r = b (b is not modified). In host pointer mode every
 * argument is a host pointer and the result is computed during the call;
 * in device pointer mode every argument is a device pointer, read and
 * written in stream order. */
trnblasStatus_t trnblasSrotg(trnblasHandle_t handle, float *a, float *b, float *c, float *s);
trnblasStatus_t trnblasDrotg(trnblasHandle_t handle, double *a, double *b, double *c, double *s);
trnblasStatus_t trnblasCrotg(trnblasHandle_t handle, trnComplex *a, trnComplex *b, float *c,
                             trnComplex *s);
trnblasStatus_t trnblasZrotg(trnblasHandle_t handle, trnDoubleComplex *a, trnDoubleComplex *b,
                             double *c, trnDoubleComplex *s);
/* Applies the modified Givens transformation H to (x_i, y_i): param = flag,
 * h11, h21, h12, h22 (flag -1: H as given; 0: h11 = h22 = 1; 1: h12 = 1,
 * h21 = -1; -2: H = I, nothing is done). param follows the pointer mode. */
trnblasStatus_t trnblasSrotm(trnblasHandle_t handle, int n, float *x, int incx, float *y, int incy,
                             const float *param);
trnblasStatus_t trnblasDrotm(trnblasHandle_t handle, int n, double *x, int incx, double *y,
                             int incy, const double *param);
/* Constructs the modified Givens transformation that zeros the second
 * component of (sqrt(d1) x1, sqrt(d2) y1), reference BLAS's rotmg (with its
 * rescaling by gam = 4096): d1, d2 and x1 are overwritten, param receives
 * flag and the elements of H that flag does not imply. Pointer modes as
 * for rotg (y1 is read only). */
trnblasStatus_t trnblasSrotmg(trnblasHandle_t handle, float *d1, float *d2, float *x1,
                              const float *y1, float *param);
trnblasStatus_t trnblasDrotmg(trnblasHandle_t handle, double *d1, double *d2, double *x1,
                              const double *y1, double *param);

/* ---- Level 1 with explicit types (cuBLAS's *Ex routines) ----------------
 * Each call runs as the S, D, C or Z routine its types name, with that
 * routine's checks, pointer modes and results. Supported combinations (the
 * executiontype last):
 *  - AxpyEx (alphaType, xType, yType): all R_32F, all R_64F, all C_32F, all
 *    C_64F (saxpy ... zaxpy);
 *  - DotEx, DotcEx (xType, yType, resultType): all R_32F, R_64F, C_32F or
 *    C_64F (sdot, ddot; cdotu/cdotc, zdotu/zdotc; DotcEx on real data is
 *    DotEx);
 *  - Nrm2Ex (xType, resultType): R_32F/R_32F, C_32F/R_32F with R_32F
 *    execution; R_64F/R_64F, C_64F/R_64F with R_64F (snrm2, scnrm2, dnrm2,
 *    dznrm2);
 *  - ScalEx (alphaType, xType): R_32F/R_32F, R_64F/R_64F, C_32F/C_32F,
 *    C_64F/C_64F, and the real alpha of csscal, zdscal (R_32F/C_32F with
 *    C_32F execution, R_64F/C_64F with C_64F);
 *  - RotEx (xType = yType, csType): R_32F/R_32F, R_64F/R_64F, C_32F with
 *    R_32F (csrot) or C_32F (crot), C_64F with R_64F (zdrot) or C_64F
 *    (zrot), the executiontype being xType. With a complex csType, c is
 *    read as the real part of a complex value (its imaginary part is not
 *    read) and s as a complex value.
 * The half-precision rows of cuBLAS (TRNSCI_R_16F and TRNSCI_R_16BF data
 * with R_32F execution) return TRNBLAS_STATUS_NOT_SUPPORTED naming the type
 * (trnsci has no 16-bit storage); any other combination returns
 * TRNBLAS_STATUS_NOT_SUPPORTED, as in cuBLAS. */
trnblasStatus_t trnblasAxpyEx(trnblasHandle_t handle, int n, const void *alpha,
                              trnsciDataType_t alphaType, const void *x, trnsciDataType_t xType,
                              int incx, void *y, trnsciDataType_t yType, int incy,
                              trnsciDataType_t executiontype);
trnblasStatus_t trnblasDotEx(trnblasHandle_t handle, int n, const void *x, trnsciDataType_t xType,
                             int incx, const void *y, trnsciDataType_t yType, int incy,
                             void *result, trnsciDataType_t resultType,
                             trnsciDataType_t executionType);
trnblasStatus_t trnblasDotcEx(trnblasHandle_t handle, int n, const void *x, trnsciDataType_t xType,
                              int incx, const void *y, trnsciDataType_t yType, int incy,
                              void *result, trnsciDataType_t resultType,
                              trnsciDataType_t executionType);
trnblasStatus_t trnblasNrm2Ex(trnblasHandle_t handle, int n, const void *x, trnsciDataType_t xType,
                              int incx, void *result, trnsciDataType_t resultType,
                              trnsciDataType_t executionType);
trnblasStatus_t trnblasScalEx(trnblasHandle_t handle, int n, const void *alpha,
                              trnsciDataType_t alphaType, void *x, trnsciDataType_t xType, int incx,
                              trnsciDataType_t executionType);
trnblasStatus_t trnblasRotEx(trnblasHandle_t handle, int n, void *x, trnsciDataType_t xType,
                             int incx, void *y, trnsciDataType_t yType, int incy, const void *c,
                             const void *s, trnsciDataType_t csType,
                             trnsciDataType_t executiontype);

/* ---- Level 2 (cuBLAS v2 parameter lists) --------------------------------
 * Column-major matrices with leading dimensions, as in cuBLAS. Increments may
 * be negative (a vector of n elements spans |inc|*(n-1)+1 elements from its
 * pointer, traversed from its last element when inc < 0, as in reference
 * BLAS) but not 0 (TRNBLAS_STATUS_INVALID_VALUE). Nothing is done for an
 * empty shape. Scalars as for Level 1 (host or device pointer mode); with
 * alpha = 0 in host pointer mode A and x are not read (and the rank updates
 * do nothing); beta = 0 sets y without reading it. */

/* y = alpha op(A) x + beta y; A is m x n, lda >= max(1, m); x has n elements
 * (m with a transpose) and y m (n). */
trnblasStatus_t trnblasSgemv(trnblasHandle_t handle, trnblasOperation_t trans, int m, int n,
                             const float *alpha, const float *A, int lda, const float *x, int incx,
                             const float *beta, float *y, int incy);
trnblasStatus_t trnblasDgemv(trnblasHandle_t handle, trnblasOperation_t trans, int m, int n,
                             const double *alpha, const double *A, int lda, const double *x,
                             int incx, const double *beta, double *y, int incy);
trnblasStatus_t trnblasCgemv(trnblasHandle_t handle, trnblasOperation_t trans, int m, int n,
                             const trnComplex *alpha, const trnComplex *A, int lda,
                             const trnComplex *x, int incx, const trnComplex *beta, trnComplex *y,
                             int incy);
trnblasStatus_t trnblasZgemv(trnblasHandle_t handle, trnblasOperation_t trans, int m, int n,
                             const trnDoubleComplex *alpha, const trnDoubleComplex *A, int lda,
                             const trnDoubleComplex *x, int incx, const trnDoubleComplex *beta,
                             trnDoubleComplex *y, int incy);
/* gemv with A banded: kl sub- and ku super-diagonals in band storage (column j
 * of A in rows ku - j + i of column j of the array, for the rows i of the band),
 * lda >= kl + ku + 1. */
trnblasStatus_t trnblasSgbmv(trnblasHandle_t handle, trnblasOperation_t trans, int m, int n, int kl,
                             int ku, const float *alpha, const float *A, int lda, const float *x,
                             int incx, const float *beta, float *y, int incy);
trnblasStatus_t trnblasDgbmv(trnblasHandle_t handle, trnblasOperation_t trans, int m, int n, int kl,
                             int ku, const double *alpha, const double *A, int lda, const double *x,
                             int incx, const double *beta, double *y, int incy);
trnblasStatus_t trnblasCgbmv(trnblasHandle_t handle, trnblasOperation_t trans, int m, int n, int kl,
                             int ku, const trnComplex *alpha, const trnComplex *A, int lda,
                             const trnComplex *x, int incx, const trnComplex *beta, trnComplex *y,
                             int incy);
trnblasStatus_t trnblasZgbmv(trnblasHandle_t handle, trnblasOperation_t trans, int m, int n, int kl,
                             int ku, const trnDoubleComplex *alpha, const trnDoubleComplex *A,
                             int lda, const trnDoubleComplex *x, int incx,
                             const trnDoubleComplex *beta, trnDoubleComplex *y, int incy);
/* y = alpha A x + beta y, A symmetric n x n (only the uplo triangle is read);
 * C and Z too, as in cuBLAS. */
trnblasStatus_t trnblasSsymv(trnblasHandle_t handle, trnblasFillMode_t uplo, int n,
                             const float *alpha, const float *A, int lda, const float *x, int incx,
                             const float *beta, float *y, int incy);
trnblasStatus_t trnblasDsymv(trnblasHandle_t handle, trnblasFillMode_t uplo, int n,
                             const double *alpha, const double *A, int lda, const double *x,
                             int incx, const double *beta, double *y, int incy);
trnblasStatus_t trnblasCsymv(trnblasHandle_t handle, trnblasFillMode_t uplo, int n,
                             const trnComplex *alpha, const trnComplex *A, int lda,
                             const trnComplex *x, int incx, const trnComplex *beta, trnComplex *y,
                             int incy);
trnblasStatus_t trnblasZsymv(trnblasHandle_t handle, trnblasFillMode_t uplo, int n,
                             const trnDoubleComplex *alpha, const trnDoubleComplex *A, int lda,
                             const trnDoubleComplex *x, int incx, const trnDoubleComplex *beta,
                             trnDoubleComplex *y, int incy);
/* y = alpha A x + beta y, A Hermitian (the uplo triangle; the imaginary parts
 * of its diagonal are taken as 0). */
trnblasStatus_t trnblasChemv(trnblasHandle_t handle, trnblasFillMode_t uplo, int n,
                             const trnComplex *alpha, const trnComplex *A, int lda,
                             const trnComplex *x, int incx, const trnComplex *beta, trnComplex *y,
                             int incy);
trnblasStatus_t trnblasZhemv(trnblasHandle_t handle, trnblasFillMode_t uplo, int n,
                             const trnDoubleComplex *alpha, const trnDoubleComplex *A, int lda,
                             const trnDoubleComplex *x, int incx, const trnDoubleComplex *beta,
                             trnDoubleComplex *y, int incy);
/* x = op(A) x, A triangular n x n (uplo; diag UNIT: the diagonal is taken as
 * ones and not read). */
trnblasStatus_t trnblasStrmv(trnblasHandle_t handle, trnblasFillMode_t uplo,
                             trnblasOperation_t trans, trnblasDiagType_t diag, int n,
                             const float *A, int lda, float *x, int incx);
trnblasStatus_t trnblasDtrmv(trnblasHandle_t handle, trnblasFillMode_t uplo,
                             trnblasOperation_t trans, trnblasDiagType_t diag, int n,
                             const double *A, int lda, double *x, int incx);
trnblasStatus_t trnblasCtrmv(trnblasHandle_t handle, trnblasFillMode_t uplo,
                             trnblasOperation_t trans, trnblasDiagType_t diag, int n,
                             const trnComplex *A, int lda, trnComplex *x, int incx);
trnblasStatus_t trnblasZtrmv(trnblasHandle_t handle, trnblasFillMode_t uplo,
                             trnblasOperation_t trans, trnblasDiagType_t diag, int n,
                             const trnDoubleComplex *A, int lda, trnDoubleComplex *x, int incx);
/* Solves op(A) z = x and overwrites x with z; A as for trmv. No test for
 * singularity is made (a zero diagonal gives infinities or NaNs). */
trnblasStatus_t trnblasStrsv(trnblasHandle_t handle, trnblasFillMode_t uplo,
                             trnblasOperation_t trans, trnblasDiagType_t diag, int n,
                             const float *A, int lda, float *x, int incx);
trnblasStatus_t trnblasDtrsv(trnblasHandle_t handle, trnblasFillMode_t uplo,
                             trnblasOperation_t trans, trnblasDiagType_t diag, int n,
                             const double *A, int lda, double *x, int incx);
trnblasStatus_t trnblasCtrsv(trnblasHandle_t handle, trnblasFillMode_t uplo,
                             trnblasOperation_t trans, trnblasDiagType_t diag, int n,
                             const trnComplex *A, int lda, trnComplex *x, int incx);
trnblasStatus_t trnblasZtrsv(trnblasHandle_t handle, trnblasFillMode_t uplo,
                             trnblasOperation_t trans, trnblasDiagType_t diag, int n,
                             const trnDoubleComplex *A, int lda, trnDoubleComplex *x, int incx);
/* A = alpha x y^T + A (geru), A = alpha x y^H + A (gerc); A is m x n, x has m
 * elements and y n. */
trnblasStatus_t trnblasSger(trnblasHandle_t handle, int m, int n, const float *alpha,
                            const float *x, int incx, const float *y, int incy, float *A, int lda);
trnblasStatus_t trnblasDger(trnblasHandle_t handle, int m, int n, const double *alpha,
                            const double *x, int incx, const double *y, int incy, double *A,
                            int lda);
trnblasStatus_t trnblasCgeru(trnblasHandle_t handle, int m, int n, const trnComplex *alpha,
                             const trnComplex *x, int incx, const trnComplex *y, int incy,
                             trnComplex *A, int lda);
trnblasStatus_t trnblasCgerc(trnblasHandle_t handle, int m, int n, const trnComplex *alpha,
                             const trnComplex *x, int incx, const trnComplex *y, int incy,
                             trnComplex *A, int lda);
trnblasStatus_t trnblasZgeru(trnblasHandle_t handle, int m, int n, const trnDoubleComplex *alpha,
                             const trnDoubleComplex *x, int incx, const trnDoubleComplex *y,
                             int incy, trnDoubleComplex *A, int lda);
trnblasStatus_t trnblasZgerc(trnblasHandle_t handle, int m, int n, const trnDoubleComplex *alpha,
                             const trnDoubleComplex *x, int incx, const trnDoubleComplex *y,
                             int incy, trnDoubleComplex *A, int lda);
/* A = alpha x x^T + A, the uplo triangle of A symmetric n x n; C and Z too. */
trnblasStatus_t trnblasSsyr(trnblasHandle_t handle, trnblasFillMode_t uplo, int n,
                            const float *alpha, const float *x, int incx, float *A, int lda);
trnblasStatus_t trnblasDsyr(trnblasHandle_t handle, trnblasFillMode_t uplo, int n,
                            const double *alpha, const double *x, int incx, double *A, int lda);
trnblasStatus_t trnblasCsyr(trnblasHandle_t handle, trnblasFillMode_t uplo, int n,
                            const trnComplex *alpha, const trnComplex *x, int incx, trnComplex *A,
                            int lda);
trnblasStatus_t trnblasZsyr(trnblasHandle_t handle, trnblasFillMode_t uplo, int n,
                            const trnDoubleComplex *alpha, const trnDoubleComplex *x, int incx,
                            trnDoubleComplex *A, int lda);
/* A = alpha (x y^T + y x^T) + A, the uplo triangle; C and Z too. */
trnblasStatus_t trnblasSsyr2(trnblasHandle_t handle, trnblasFillMode_t uplo, int n,
                             const float *alpha, const float *x, int incx, const float *y, int incy,
                             float *A, int lda);
trnblasStatus_t trnblasDsyr2(trnblasHandle_t handle, trnblasFillMode_t uplo, int n,
                             const double *alpha, const double *x, int incx, const double *y,
                             int incy, double *A, int lda);
trnblasStatus_t trnblasCsyr2(trnblasHandle_t handle, trnblasFillMode_t uplo, int n,
                             const trnComplex *alpha, const trnComplex *x, int incx,
                             const trnComplex *y, int incy, trnComplex *A, int lda);
trnblasStatus_t trnblasZsyr2(trnblasHandle_t handle, trnblasFillMode_t uplo, int n,
                             const trnDoubleComplex *alpha, const trnDoubleComplex *x, int incx,
                             const trnDoubleComplex *y, int incy, trnDoubleComplex *A, int lda);
/* A = alpha x x^H + A with alpha real, the uplo triangle of A Hermitian; the
 * diagonal's imaginary parts are set to 0 (unless alpha = 0). */
trnblasStatus_t trnblasCher(trnblasHandle_t handle, trnblasFillMode_t uplo, int n,
                            const float *alpha, const trnComplex *x, int incx, trnComplex *A,
                            int lda);
trnblasStatus_t trnblasZher(trnblasHandle_t handle, trnblasFillMode_t uplo, int n,
                            const double *alpha, const trnDoubleComplex *x, int incx,
                            trnDoubleComplex *A, int lda);
/* A = alpha x y^H + conj(alpha) y x^H + A, the uplo triangle; the diagonal's
 * imaginary parts are set to 0 (unless alpha = 0). */
trnblasStatus_t trnblasCher2(trnblasHandle_t handle, trnblasFillMode_t uplo, int n,
                             const trnComplex *alpha, const trnComplex *x, int incx,
                             const trnComplex *y, int incy, trnComplex *A, int lda);
trnblasStatus_t trnblasZher2(trnblasHandle_t handle, trnblasFillMode_t uplo, int n,
                             const trnDoubleComplex *alpha, const trnDoubleComplex *x, int incx,
                             const trnDoubleComplex *y, int incy, trnDoubleComplex *A, int lda);

/* ---- Batched gemv ----------------------------------------------------------
 * batchCount products y_i = alpha op(A_i) x_i + beta y_i with gemv's
 * arguments. gemvBatched: Aarray, xarray and yarray are DEVICE arrays of
 * device pointers, read when the routine is called (after the handle's
 * stream's earlier work), as for gemmBatched. gemvStridedBatched: entry i
 * at A + i*strideA, x + i*stridex and y + i*stridey elements (strides >=
 * 0, INVALID_VALUE otherwise). Every entry is checked before any runs (an
 * invalid one fails the call, naming it: "gemvBatched: product 3: gemv:
 * A ..."); the products then run in batch order on the stream, one op
 * each. batchCount = 0 does nothing; a negative one is INVALID_VALUE. */
trnblasStatus_t trnblasSgemvBatched(trnblasHandle_t handle, trnblasOperation_t trans, int m, int n,
                                    const float *alpha, const float *const Aarray[], int lda,
                                    const float *const xarray[], int incx, const float *beta,
                                    float *const yarray[], int incy, int batchCount);
trnblasStatus_t trnblasDgemvBatched(trnblasHandle_t handle, trnblasOperation_t trans, int m, int n,
                                    const double *alpha, const double *const Aarray[], int lda,
                                    const double *const xarray[], int incx, const double *beta,
                                    double *const yarray[], int incy, int batchCount);
trnblasStatus_t trnblasCgemvBatched(trnblasHandle_t handle, trnblasOperation_t trans, int m, int n,
                                    const trnComplex *alpha, const trnComplex *const Aarray[],
                                    int lda, const trnComplex *const xarray[], int incx,
                                    const trnComplex *beta, trnComplex *const yarray[], int incy,
                                    int batchCount);
trnblasStatus_t trnblasZgemvBatched(trnblasHandle_t handle, trnblasOperation_t trans, int m, int n,
                                    const trnDoubleComplex *alpha,
                                    const trnDoubleComplex *const Aarray[], int lda,
                                    const trnDoubleComplex *const xarray[], int incx,
                                    const trnDoubleComplex *beta, trnDoubleComplex *const yarray[],
                                    int incy, int batchCount);
trnblasStatus_t trnblasSgemvStridedBatched(trnblasHandle_t handle, trnblasOperation_t trans, int m,
                                           int n, const float *alpha, const float *A, int lda,
                                           long long int strideA, const float *x, int incx,
                                           long long int stridex, const float *beta, float *y,
                                           int incy, long long int stridey, int batchCount);
trnblasStatus_t trnblasDgemvStridedBatched(trnblasHandle_t handle, trnblasOperation_t trans, int m,
                                           int n, const double *alpha, const double *A, int lda,
                                           long long int strideA, const double *x, int incx,
                                           long long int stridex, const double *beta, double *y,
                                           int incy, long long int stridey, int batchCount);
trnblasStatus_t trnblasCgemvStridedBatched(trnblasHandle_t handle, trnblasOperation_t trans, int m,
                                           int n, const trnComplex *alpha, const trnComplex *A,
                                           int lda, long long int strideA, const trnComplex *x,
                                           int incx, long long int stridex, const trnComplex *beta,
                                           trnComplex *y, int incy, long long int stridey,
                                           int batchCount);
trnblasStatus_t trnblasZgemvStridedBatched(trnblasHandle_t handle, trnblasOperation_t trans, int m,
                                           int n, const trnDoubleComplex *alpha,
                                           const trnDoubleComplex *A, int lda,
                                           long long int strideA, const trnDoubleComplex *x,
                                           int incx, long long int stridex,
                                           const trnDoubleComplex *beta, trnDoubleComplex *y,
                                           int incy, long long int stridey, int batchCount);

/* ---- Band and packed Level 2 (cuBLAS v2 parameter lists) ----------------
 * Band storage of an n x n triangle with k super-diagonals (uplo UPPER:
 * A(i, j) at A[(k + i - j) + j*lda] for max(0, j - k) <= i <= j) or k
 * sub-diagonals (LOWER: A(i, j) at A[(i - j) + j*lda] for j <= i <= min(n -
 * 1, j + k)), lda >= k + 1; packed storage of the uplo triangle column by
 * column in n(n + 1)/2 elements (UPPER: A(i, j) at AP[i + j(j + 1)/2];
 * LOWER: at AP[i + (2n - j - 1) j/2]). Arguments, scalars, increments and
 * quick returns as for the dense Level 2 routines; k < 0, lda < k + 1 or an
 * operand that runs past its allocation is TRNBLAS_STATUS_INVALID_VALUE. */

/* x = op(A) x, A triangular banded / packed (diag UNIT: ones, not read). */
trnblasStatus_t trnblasStbmv(trnblasHandle_t handle, trnblasFillMode_t uplo,
                             trnblasOperation_t trans, trnblasDiagType_t diag, int n, int k,
                             const float *A, int lda, float *x, int incx);
trnblasStatus_t trnblasDtbmv(trnblasHandle_t handle, trnblasFillMode_t uplo,
                             trnblasOperation_t trans, trnblasDiagType_t diag, int n, int k,
                             const double *A, int lda, double *x, int incx);
trnblasStatus_t trnblasCtbmv(trnblasHandle_t handle, trnblasFillMode_t uplo,
                             trnblasOperation_t trans, trnblasDiagType_t diag, int n, int k,
                             const trnComplex *A, int lda, trnComplex *x, int incx);
trnblasStatus_t trnblasZtbmv(trnblasHandle_t handle, trnblasFillMode_t uplo,
                             trnblasOperation_t trans, trnblasDiagType_t diag, int n, int k,
                             const trnDoubleComplex *A, int lda, trnDoubleComplex *x, int incx);
trnblasStatus_t trnblasStpmv(trnblasHandle_t handle, trnblasFillMode_t uplo,
                             trnblasOperation_t trans, trnblasDiagType_t diag, int n,
                             const float *AP, float *x, int incx);
trnblasStatus_t trnblasDtpmv(trnblasHandle_t handle, trnblasFillMode_t uplo,
                             trnblasOperation_t trans, trnblasDiagType_t diag, int n,
                             const double *AP, double *x, int incx);
trnblasStatus_t trnblasCtpmv(trnblasHandle_t handle, trnblasFillMode_t uplo,
                             trnblasOperation_t trans, trnblasDiagType_t diag, int n,
                             const trnComplex *AP, trnComplex *x, int incx);
trnblasStatus_t trnblasZtpmv(trnblasHandle_t handle, trnblasFillMode_t uplo,
                             trnblasOperation_t trans, trnblasDiagType_t diag, int n,
                             const trnDoubleComplex *AP, trnDoubleComplex *x, int incx);
/* Solves op(A) z = x and overwrites x with z, A triangular banded / packed;
 * no test for singularity. */
trnblasStatus_t trnblasStbsv(trnblasHandle_t handle, trnblasFillMode_t uplo,
                             trnblasOperation_t trans, trnblasDiagType_t diag, int n, int k,
                             const float *A, int lda, float *x, int incx);
trnblasStatus_t trnblasDtbsv(trnblasHandle_t handle, trnblasFillMode_t uplo,
                             trnblasOperation_t trans, trnblasDiagType_t diag, int n, int k,
                             const double *A, int lda, double *x, int incx);
trnblasStatus_t trnblasCtbsv(trnblasHandle_t handle, trnblasFillMode_t uplo,
                             trnblasOperation_t trans, trnblasDiagType_t diag, int n, int k,
                             const trnComplex *A, int lda, trnComplex *x, int incx);
trnblasStatus_t trnblasZtbsv(trnblasHandle_t handle, trnblasFillMode_t uplo,
                             trnblasOperation_t trans, trnblasDiagType_t diag, int n, int k,
                             const trnDoubleComplex *A, int lda, trnDoubleComplex *x, int incx);
trnblasStatus_t trnblasStpsv(trnblasHandle_t handle, trnblasFillMode_t uplo,
                             trnblasOperation_t trans, trnblasDiagType_t diag, int n,
                             const float *AP, float *x, int incx);
trnblasStatus_t trnblasDtpsv(trnblasHandle_t handle, trnblasFillMode_t uplo,
                             trnblasOperation_t trans, trnblasDiagType_t diag, int n,
                             const double *AP, double *x, int incx);
trnblasStatus_t trnblasCtpsv(trnblasHandle_t handle, trnblasFillMode_t uplo,
                             trnblasOperation_t trans, trnblasDiagType_t diag, int n,
                             const trnComplex *AP, trnComplex *x, int incx);
trnblasStatus_t trnblasZtpsv(trnblasHandle_t handle, trnblasFillMode_t uplo,
                             trnblasOperation_t trans, trnblasDiagType_t diag, int n,
                             const trnDoubleComplex *AP, trnDoubleComplex *x, int incx);
/* y = alpha A x + beta y, A symmetric (S, D) or Hermitian (C, Z: the
 * diagonal's imaginary parts are not read), banded / packed. */
trnblasStatus_t trnblasSsbmv(trnblasHandle_t handle, trnblasFillMode_t uplo, int n, int k,
                             const float *alpha, const float *A, int lda, const float *x, int incx,
                             const float *beta, float *y, int incy);
trnblasStatus_t trnblasDsbmv(trnblasHandle_t handle, trnblasFillMode_t uplo, int n, int k,
                             const double *alpha, const double *A, int lda, const double *x,
                             int incx, const double *beta, double *y, int incy);
trnblasStatus_t trnblasChbmv(trnblasHandle_t handle, trnblasFillMode_t uplo, int n, int k,
                             const trnComplex *alpha, const trnComplex *A, int lda,
                             const trnComplex *x, int incx, const trnComplex *beta, trnComplex *y,
                             int incy);
trnblasStatus_t trnblasZhbmv(trnblasHandle_t handle, trnblasFillMode_t uplo, int n, int k,
                             const trnDoubleComplex *alpha, const trnDoubleComplex *A, int lda,
                             const trnDoubleComplex *x, int incx, const trnDoubleComplex *beta,
                             trnDoubleComplex *y, int incy);
trnblasStatus_t trnblasSspmv(trnblasHandle_t handle, trnblasFillMode_t uplo, int n,
                             const float *alpha, const float *AP, const float *x, int incx,
                             const float *beta, float *y, int incy);
trnblasStatus_t trnblasDspmv(trnblasHandle_t handle, trnblasFillMode_t uplo, int n,
                             const double *alpha, const double *AP, const double *x, int incx,
                             const double *beta, double *y, int incy);
trnblasStatus_t trnblasChpmv(trnblasHandle_t handle, trnblasFillMode_t uplo, int n,
                             const trnComplex *alpha, const trnComplex *AP, const trnComplex *x,
                             int incx, const trnComplex *beta, trnComplex *y, int incy);
trnblasStatus_t trnblasZhpmv(trnblasHandle_t handle, trnblasFillMode_t uplo, int n,
                             const trnDoubleComplex *alpha, const trnDoubleComplex *AP,
                             const trnDoubleComplex *x, int incx, const trnDoubleComplex *beta,
                             trnDoubleComplex *y, int incy);
/* AP = alpha x x^T + AP (S, D), alpha x x^H + AP with alpha real (C, Z:
 * the diagonal's imaginary parts are set to 0 unless alpha = 0), packed. */
trnblasStatus_t trnblasSspr(trnblasHandle_t handle, trnblasFillMode_t uplo, int n,
                            const float *alpha, const float *x, int incx, float *AP);
trnblasStatus_t trnblasDspr(trnblasHandle_t handle, trnblasFillMode_t uplo, int n,
                            const double *alpha, const double *x, int incx, double *AP);
trnblasStatus_t trnblasChpr(trnblasHandle_t handle, trnblasFillMode_t uplo, int n,
                            const float *alpha, const trnComplex *x, int incx, trnComplex *AP);
trnblasStatus_t trnblasZhpr(trnblasHandle_t handle, trnblasFillMode_t uplo, int n,
                            const double *alpha, const trnDoubleComplex *x, int incx,
                            trnDoubleComplex *AP);
/* AP = alpha (x y^T + y x^T) + AP (S, D), alpha x y^H + conj(alpha) y x^H +
 * AP (C, Z; the diagonal left real), packed. */
trnblasStatus_t trnblasSspr2(trnblasHandle_t handle, trnblasFillMode_t uplo, int n,
                             const float *alpha, const float *x, int incx, const float *y, int incy,
                             float *AP);
trnblasStatus_t trnblasDspr2(trnblasHandle_t handle, trnblasFillMode_t uplo, int n,
                             const double *alpha, const double *x, int incx, const double *y,
                             int incy, double *AP);
trnblasStatus_t trnblasChpr2(trnblasHandle_t handle, trnblasFillMode_t uplo, int n,
                             const trnComplex *alpha, const trnComplex *x, int incx,
                             const trnComplex *y, int incy, trnComplex *AP);
trnblasStatus_t trnblasZhpr2(trnblasHandle_t handle, trnblasFillMode_t uplo, int n,
                             const trnDoubleComplex *alpha, const trnDoubleComplex *x, int incx,
                             const trnDoubleComplex *y, int incy, trnDoubleComplex *AP);

/* C = alpha op(A) op(B) + beta C. op(A) is m×k, op(B) is k×n, C is m×n.
 * lda >= max(1, transa == N ? m : k), ldb >= max(1, transb == N ? k : n),
 * ldc >= max(1, m). */
trnblasStatus_t trnblasSgemm(trnblasHandle_t handle, trnblasOperation_t transa,
                             trnblasOperation_t transb, int m, int n, int k, const float *alpha,
                             const float *A, int lda, const float *B, int ldb, const float *beta,
                             float *C, int ldc);
trnblasStatus_t trnblasDgemm(trnblasHandle_t handle, trnblasOperation_t transa,
                             trnblasOperation_t transb, int m, int n, int k, const double *alpha,
                             const double *A, int lda, const double *B, int ldb, const double *beta,
                             double *C, int ldc);
trnblasStatus_t trnblasCgemm(trnblasHandle_t handle, trnblasOperation_t transa,
                             trnblasOperation_t transb, int m, int n, int k,
                             const trnComplex *alpha, const trnComplex *A, int lda,
                             const trnComplex *B, int ldb, const trnComplex *beta, trnComplex *C,
                             int ldc);
trnblasStatus_t trnblasZgemm(trnblasHandle_t handle, trnblasOperation_t transa,
                             trnblasOperation_t transb, int m, int n, int k,
                             const trnDoubleComplex *alpha, const trnDoubleComplex *A, int lda,
                             const trnDoubleComplex *B, int ldb, const trnDoubleComplex *beta,
                             trnDoubleComplex *C, int ldc);

/* ---- The GEMM family: batches, GemmEx --------------------------------------
 * alpha and beta follow the pointer mode (host: read during the call;
 * device: read when the op runs). S/C routines compute in FP32 unless the
 * math mode says TF32 or BF16X9; D/Z in FP64 unless it says
 * FP64_EMULATED_FIXEDPOINT.
 *
 * Strided batches: matrix i of A is at A + i*strideA elements (strides >= 0;
 * 0 reuses one matrix for every product). Pointer-array batches: Aarray,
 * Barray and Carray are DEVICE arrays of batchCount device pointers; the
 * library reads them when called (after the handle's stream's earlier work),
 * so they must hold their final values by then (docs/rosetta.md). The C
 * matrices of a batch must not overlap (TRNBLAS_STATUS_INVALID_VALUE).
 * batchCount = 0 does nothing; batchCount < 0 is INVALID_VALUE. */

trnblasStatus_t trnblasSgemmStridedBatched(trnblasHandle_t handle, trnblasOperation_t transa,
                                           trnblasOperation_t transb, int m, int n, int k,
                                           const float *alpha, const float *A, int lda,
                                           long long int strideA, const float *B, int ldb,
                                           long long int strideB, const float *beta, float *C,
                                           int ldc, long long int strideC, int batchCount);
trnblasStatus_t trnblasDgemmStridedBatched(trnblasHandle_t handle, trnblasOperation_t transa,
                                           trnblasOperation_t transb, int m, int n, int k,
                                           const double *alpha, const double *A, int lda,
                                           long long int strideA, const double *B, int ldb,
                                           long long int strideB, const double *beta, double *C,
                                           int ldc, long long int strideC, int batchCount);
trnblasStatus_t trnblasCgemmStridedBatched(trnblasHandle_t handle, trnblasOperation_t transa,
                                           trnblasOperation_t transb, int m, int n, int k,
                                           const trnComplex *alpha, const trnComplex *A, int lda,
                                           long long int strideA, const trnComplex *B, int ldb,
                                           long long int strideB, const trnComplex *beta,
                                           trnComplex *C, int ldc, long long int strideC,
                                           int batchCount);
trnblasStatus_t trnblasZgemmStridedBatched(
    trnblasHandle_t handle, trnblasOperation_t transa, trnblasOperation_t transb, int m, int n,
    int k, const trnDoubleComplex *alpha, const trnDoubleComplex *A, int lda, long long int strideA,
    const trnDoubleComplex *B, int ldb, long long int strideB, const trnDoubleComplex *beta,
    trnDoubleComplex *C, int ldc, long long int strideC, int batchCount);
trnblasStatus_t trnblasSgemmBatched(trnblasHandle_t handle, trnblasOperation_t transa,
                                    trnblasOperation_t transb, int m, int n, int k,
                                    const float *alpha, const float *const Aarray[], int lda,
                                    const float *const Barray[], int ldb, const float *beta,
                                    float *const Carray[], int ldc, int batchCount);
trnblasStatus_t trnblasDgemmBatched(trnblasHandle_t handle, trnblasOperation_t transa,
                                    trnblasOperation_t transb, int m, int n, int k,
                                    const double *alpha, const double *const Aarray[], int lda,
                                    const double *const Barray[], int ldb, const double *beta,
                                    double *const Carray[], int ldc, int batchCount);
trnblasStatus_t trnblasCgemmBatched(trnblasHandle_t handle, trnblasOperation_t transa,
                                    trnblasOperation_t transb, int m, int n, int k,
                                    const trnComplex *alpha, const trnComplex *const Aarray[],
                                    int lda, const trnComplex *const Barray[], int ldb,
                                    const trnComplex *beta, trnComplex *const Carray[], int ldc,
                                    int batchCount);
trnblasStatus_t trnblasZgemmBatched(trnblasHandle_t handle, trnblasOperation_t transa,
                                    trnblasOperation_t transb, int m, int n, int k,
                                    const trnDoubleComplex *alpha,
                                    const trnDoubleComplex *const Aarray[], int lda,
                                    const trnDoubleComplex *const Barray[], int ldb,
                                    const trnDoubleComplex *beta, trnDoubleComplex *const Carray[],
                                    int ldc, int batchCount);

/* Half storage (trn_fp16.h's trnsciHalf, cuda_fp16.h's __half): C = alpha
 * op(A) op(B) + beta C with A, B, C, alpha and beta in IEEE binary16, shapes,
 * batches and pointer mode as for Sgemm and its batched forms. Computed as
 * GemmEx's COMPUTE_16F: the operands widened exactly to FP32, products
 * summed in FP32, the result rounded once to half (to nearest even;
 * docs/numerics.md). beta = 0 does not read C. Needs a daemon of protocol
 * 1.13 (else TRNBLAS_STATUS_NOT_SUPPORTED). */
trnblasStatus_t trnblasHgemm(trnblasHandle_t handle, trnblasOperation_t transa,
                             trnblasOperation_t transb, int m, int n, int k,
                             const trnsciHalf *alpha, const trnsciHalf *A, int lda,
                             const trnsciHalf *B, int ldb, const trnsciHalf *beta, trnsciHalf *C,
                             int ldc);
trnblasStatus_t trnblasHgemmStridedBatched(trnblasHandle_t handle, trnblasOperation_t transa,
                                           trnblasOperation_t transb, int m, int n, int k,
                                           const trnsciHalf *alpha, const trnsciHalf *A, int lda,
                                           long long int strideA, const trnsciHalf *B, int ldb,
                                           long long int strideB, const trnsciHalf *beta,
                                           trnsciHalf *C, int ldc, long long int strideC,
                                           int batchCount);
trnblasStatus_t trnblasHgemmBatched(trnblasHandle_t handle, trnblasOperation_t transa,
                                    trnblasOperation_t transb, int m, int n, int k,
                                    const trnsciHalf *alpha, const trnsciHalf *const Aarray[],
                                    int lda, const trnsciHalf *const Barray[], int ldb,
                                    const trnsciHalf *beta, trnsciHalf *const Carray[], int ldc,
                                    int batchCount);

/* C = alpha op(A) op(B) + beta C with explicit types and compute type.
 * Supported (cublasGemmEx's table; alpha and beta are of the scale type):
 *
 *   Atype = Btype  Ctype    computeType                 scale type
 *   R_32F, C_32F   = Atype  COMPUTE_32F modes (below)   Ctype
 *   R_64F, C_64F   = Atype  64F, 64F_PEDANTIC,          Ctype
 *                           64F_EMULATED_FIXEDPOINT
 *   R_16F          R_16F    16F, 16F_PEDANTIC           R_16F (trnsciHalf)
 *   R_16F          R_16F    32F, 32F_PEDANTIC           R_32F
 *   R_16F          R_32F    32F, 32F_PEDANTIC           R_32F
 *   R_16BF         R_16BF   32F, 32F_PEDANTIC           R_32F
 *   R_16BF         R_32F    32F, 32F_PEDANTIC           R_32F
 *   R_8I           R_32I    32I, 32I_PEDANTIC           R_32I
 *   R_8I           R_32F    32F, 32F_PEDANTIC           R_32F
 *
 * The COMPUTE_32F modes of R_32F and C_32F data are 32F, 32F_PEDANTIC,
 * 32F_FAST_16BF, 32F_FAST_TF32, 32F_FAST_16F, 32F_EMULATED_16BFX9 and
 * 32F_BF16X3. Other combinations are TRNBLAS_STATUS_NOT_SUPPORTED. The math
 * mode applies to COMPUTE_32F and COMPUTE_64F on 32- and 64-bit data as to
 * Sgemm and Dgemm; the PEDANTIC types ignore it, and so do 16-bit and int8
 * storage. 16-bit and int8 storage (needs a protocol 1.13 daemon): the
 * inputs are widened exactly to FP32, products summed in FP32 (COMPUTE_16F
 * too) and the result rounded once to Ctype, to nearest even; COMPUTE_32I
 * computes in int32 modulo 2^32. beta = 0 never reads C. Element sizes:
 * 2 bytes (R_16F, R_16BF), 1 (R_8I), 4 (R_32I); pointers must be aligned
 * to them. */
trnblasStatus_t trnblasGemmEx(trnblasHandle_t handle, trnblasOperation_t transa,
                              trnblasOperation_t transb, int m, int n, int k, const void *alpha,
                              const void *A, trnsciDataType_t Atype, int lda, const void *B,
                              trnsciDataType_t Btype, int ldb, const void *beta, void *C,
                              trnsciDataType_t Ctype, int ldc, trnblasComputeType_t computeType,
                              trnblasGemmAlgo_t algo);
trnblasStatus_t trnblasGemmBatchedEx(trnblasHandle_t handle, trnblasOperation_t transa,
                                     trnblasOperation_t transb, int m, int n, int k,
                                     const void *alpha, const void *const Aarray[],
                                     trnsciDataType_t Atype, int lda, const void *const Barray[],
                                     trnsciDataType_t Btype, int ldb, const void *beta,
                                     void *const Carray[], trnsciDataType_t Ctype, int ldc,
                                     int batchCount, trnblasComputeType_t computeType,
                                     trnblasGemmAlgo_t algo);
trnblasStatus_t trnblasGemmStridedBatchedEx(
    trnblasHandle_t handle, trnblasOperation_t transa, trnblasOperation_t transb, int m, int n,
    int k, const void *alpha, const void *A, trnsciDataType_t Atype, int lda, long long int strideA,
    const void *B, trnsciDataType_t Btype, int ldb, long long int strideB, const void *beta,
    void *C, trnsciDataType_t Ctype, int ldc, long long int strideC, int batchCount,
    trnblasComputeType_t computeType, trnblasGemmAlgo_t algo);

/* ---- Routines under other names, and packed <-> full triangles --------------
 * <t>gemm3m and Cgemm3mEx (cuBLAS's Gauss three-multiplication complex
 * GEMMs) compute the ordinary complex GEMM: the same result as <t>gemm /
 * CgemmEx, within the smaller error bound. SgemmEx and CgemmEx are GemmEx
 * with TRNBLAS_COMPUTE_32F and their alpha/beta types (the storage rows
 * GemmEx takes for that compute type). CsyrkEx, Csyrk3mEx, CherkEx and
 * Cherk3mEx take Atype = Ctype = TRNSCI_C_32F and are Csyrk / Cherk; the
 * C_8I input rows of cuBLAS are TRNBLAS_STATUS_NOT_SUPPORTED.
 *
 * <t>tpttr copies the uplo triangle of packed AP into full A (lda >= max(1,
 * n)), leaving A's other triangle as it is; <t>trttp the other way. Both
 * are queued on the handle's stream (one device-to-device copy per
 * column); uplo not a trnblasFillMode_t, n < 0 or lda < max(1, n) is
 * TRNBLAS_STATUS_INVALID_VALUE. */
trnblasStatus_t trnblasCgemm3m(trnblasHandle_t handle, trnblasOperation_t transa,
                               trnblasOperation_t transb, int m, int n, int k,
                               const trnComplex *alpha, const trnComplex *A, int lda,
                               const trnComplex *B, int ldb, const trnComplex *beta, trnComplex *C,
                               int ldc);
trnblasStatus_t trnblasZgemm3m(trnblasHandle_t handle, trnblasOperation_t transa,
                               trnblasOperation_t transb, int m, int n, int k,
                               const trnDoubleComplex *alpha, const trnDoubleComplex *A, int lda,
                               const trnDoubleComplex *B, int ldb, const trnDoubleComplex *beta,
                               trnDoubleComplex *C, int ldc);
trnblasStatus_t trnblasSgemmEx(trnblasHandle_t handle, trnblasOperation_t transa,
                               trnblasOperation_t transb, int m, int n, int k, const float *alpha,
                               const void *A, trnsciDataType_t Atype, int lda, const void *B,
                               trnsciDataType_t Btype, int ldb, const float *beta, void *C,
                               trnsciDataType_t Ctype, int ldc);
trnblasStatus_t trnblasCgemmEx(trnblasHandle_t handle, trnblasOperation_t transa,
                               trnblasOperation_t transb, int m, int n, int k,
                               const trnComplex *alpha, const void *A, trnsciDataType_t Atype,
                               int lda, const void *B, trnsciDataType_t Btype, int ldb,
                               const trnComplex *beta, void *C, trnsciDataType_t Ctype, int ldc);
trnblasStatus_t trnblasCgemm3mEx(trnblasHandle_t handle, trnblasOperation_t transa,
                                 trnblasOperation_t transb, int m, int n, int k,
                                 const trnComplex *alpha, const void *A, trnsciDataType_t Atype,
                                 int lda, const void *B, trnsciDataType_t Btype, int ldb,
                                 const trnComplex *beta, void *C, trnsciDataType_t Ctype, int ldc);
trnblasStatus_t trnblasCsyrkEx(trnblasHandle_t handle, trnblasFillMode_t uplo,
                               trnblasOperation_t trans, int n, int k, const trnComplex *alpha,
                               const void *A, trnsciDataType_t Atype, int lda,
                               const trnComplex *beta, void *C, trnsciDataType_t Ctype, int ldc);
trnblasStatus_t trnblasCsyrk3mEx(trnblasHandle_t handle, trnblasFillMode_t uplo,
                                 trnblasOperation_t trans, int n, int k, const trnComplex *alpha,
                                 const void *A, trnsciDataType_t Atype, int lda,
                                 const trnComplex *beta, void *C, trnsciDataType_t Ctype, int ldc);
trnblasStatus_t trnblasCherkEx(trnblasHandle_t handle, trnblasFillMode_t uplo,
                               trnblasOperation_t trans, int n, int k, const float *alpha,
                               const void *A, trnsciDataType_t Atype, int lda, const float *beta,
                               void *C, trnsciDataType_t Ctype, int ldc);
trnblasStatus_t trnblasCherk3mEx(trnblasHandle_t handle, trnblasFillMode_t uplo,
                                 trnblasOperation_t trans, int n, int k, const float *alpha,
                                 const void *A, trnsciDataType_t Atype, int lda, const float *beta,
                                 void *C, trnsciDataType_t Ctype, int ldc);
trnblasStatus_t trnblasStpttr(trnblasHandle_t handle, trnblasFillMode_t uplo, int n,
                              const float *AP, float *A, int lda);
trnblasStatus_t trnblasDtpttr(trnblasHandle_t handle, trnblasFillMode_t uplo, int n,
                              const double *AP, double *A, int lda);
trnblasStatus_t trnblasCtpttr(trnblasHandle_t handle, trnblasFillMode_t uplo, int n,
                              const trnComplex *AP, trnComplex *A, int lda);
trnblasStatus_t trnblasZtpttr(trnblasHandle_t handle, trnblasFillMode_t uplo, int n,
                              const trnDoubleComplex *AP, trnDoubleComplex *A, int lda);
trnblasStatus_t trnblasStrttp(trnblasHandle_t handle, trnblasFillMode_t uplo, int n, const float *A,
                              int lda, float *AP);
trnblasStatus_t trnblasDtrttp(trnblasHandle_t handle, trnblasFillMode_t uplo, int n,
                              const double *A, int lda, double *AP);
trnblasStatus_t trnblasCtrttp(trnblasHandle_t handle, trnblasFillMode_t uplo, int n,
                              const trnComplex *A, int lda, trnComplex *AP);
trnblasStatus_t trnblasZtrttp(trnblasHandle_t handle, trnblasFillMode_t uplo, int n,
                              const trnDoubleComplex *A, int lda, trnDoubleComplex *AP);

/* ---- Grouped batched GEMM (cuBLAS 12.5's gemmGroupedBatched) ---------------------------
 * group_count groups; group g holds group_size[g] problems C_j = alpha_g
 * op_g(A_j) op_g(B_j) + beta_g C_j sharing transa_array[g], transb_array[g],
 * m_array[g], n_array[g], k_array[g], alpha_array[g], lda_array[g],
 * ldb_array[g], beta_array[g] and ldc_array[g] (all host arrays of
 * group_count entries), and takes the next group_size[g] entries of the
 * device pointer arrays Aarray, Barray and Carray (sum(group_size) entries
 * each, read once when the routine is called, after the handle's stream's
 * earlier work; docs/rosetta.md). trnsci runs each group as one
 * gemmBatched (one pointer-array batch, split over cores by matrices),
 * queued in group order on the handle's stream; every group is checked
 * (arguments and pointers) before the first is queued, so a bad group
 * fails the call with nothing done. TRNBLAS_STATUS_INVALID_VALUE for
 * group_count < 0, a NULL host array, a group with an unknown trans, m, n,
 * k or group_size < 0, or a leading dimension below gemm's minimum (the
 * message names the array and the group); group_count = 0 or empty groups
 * do nothing. alpha_array and beta_array are host arrays only: in device
 * pointer mode the routines return TRNBLAS_STATUS_NOT_SUPPORTED. The math
 * mode applies as to Sgemm and Dgemm. GemmGroupedBatchedEx takes Atype =
 * Btype = Ctype = R_32F or R_64F with the compute types GemmEx takes for
 * them (alpha_array and beta_array of that type); other types are
 * TRNBLAS_STATUS_NOT_SUPPORTED naming them. The _64 forms take int64_t
 * sizes and counts; a value that does not fit in int is
 * TRNBLAS_STATUS_NOT_SUPPORTED naming the array and the group. */
trnblasStatus_t
trnblasSgemmGroupedBatched(trnblasHandle_t handle, const trnblasOperation_t transa_array[],
                           const trnblasOperation_t transb_array[], const int m_array[],
                           const int n_array[], const int k_array[], const float alpha_array[],
                           const float *const Aarray[], const int lda_array[],
                           const float *const Barray[], const int ldb_array[],
                           const float beta_array[], float *const Carray[], const int ldc_array[],
                           int group_count, const int group_size[]);
trnblasStatus_t trnblasSgemmGroupedBatched_64(
    trnblasHandle_t handle, const trnblasOperation_t transa_array[],
    const trnblasOperation_t transb_array[], const int64_t m_array[], const int64_t n_array[],
    const int64_t k_array[], const float alpha_array[], const float *const Aarray[],
    const int64_t lda_array[], const float *const Barray[], const int64_t ldb_array[],
    const float beta_array[], float *const Carray[], const int64_t ldc_array[], int64_t group_count,
    const int64_t group_size[]);
trnblasStatus_t
trnblasDgemmGroupedBatched(trnblasHandle_t handle, const trnblasOperation_t transa_array[],
                           const trnblasOperation_t transb_array[], const int m_array[],
                           const int n_array[], const int k_array[], const double alpha_array[],
                           const double *const Aarray[], const int lda_array[],
                           const double *const Barray[], const int ldb_array[],
                           const double beta_array[], double *const Carray[], const int ldc_array[],
                           int group_count, const int group_size[]);
trnblasStatus_t trnblasDgemmGroupedBatched_64(
    trnblasHandle_t handle, const trnblasOperation_t transa_array[],
    const trnblasOperation_t transb_array[], const int64_t m_array[], const int64_t n_array[],
    const int64_t k_array[], const double alpha_array[], const double *const Aarray[],
    const int64_t lda_array[], const double *const Barray[], const int64_t ldb_array[],
    const double beta_array[], double *const Carray[], const int64_t ldc_array[],
    int64_t group_count, const int64_t group_size[]);
trnblasStatus_t trnblasGemmGroupedBatchedEx(
    trnblasHandle_t handle, const trnblasOperation_t transa_array[],
    const trnblasOperation_t transb_array[], const int m_array[], const int n_array[],
    const int k_array[], const void *alpha_array, const void *const Aarray[],
    trnsciDataType_t Atype, const int lda_array[], const void *const Barray[],
    trnsciDataType_t Btype, const int ldb_array[], const void *beta_array, void *const Carray[],
    trnsciDataType_t Ctype, const int ldc_array[], int group_count, const int group_size[],
    trnblasComputeType_t computeType);
trnblasStatus_t trnblasGemmGroupedBatchedEx_64(
    trnblasHandle_t handle, const trnblasOperation_t transa_array[],
    const trnblasOperation_t transb_array[], const int64_t m_array[], const int64_t n_array[],
    const int64_t k_array[], const void *alpha_array, const void *const Aarray[],
    trnsciDataType_t Atype, const int64_t lda_array[], const void *const Barray[],
    trnsciDataType_t Btype, const int64_t ldb_array[], const void *beta_array, void *const Carray[],
    trnsciDataType_t Ctype, const int64_t ldc_array[], int64_t group_count,
    const int64_t group_size[], trnblasComputeType_t computeType);
/* ---- Level 3 beyond GEMM (cuBLAS v2 parameter lists) --------------------
 * Scalars as for Level 2 (host or device pointer mode). With alpha = 0 in
 * host pointer mode A and B are not read; beta = 0 sets C without reading it;
 * an empty shape does nothing. syrk, herk, syr2k and her2k read and write
 * only the uplo triangle of C. Large ops run on several cores, cut into the
 * same output tiles whatever the core count, so results are bitwise
 * reproducible. */

/* C = alpha A B + beta C (side LEFT, A m x m) or alpha B A + beta C (RIGHT, A
 * n x n), A symmetric (the uplo triangle); B and C are m x n. */
trnblasStatus_t trnblasSsymm(trnblasHandle_t handle, trnblasSideMode_t side, trnblasFillMode_t uplo,
                             int m, int n, const float *alpha, const float *A, int lda,
                             const float *B, int ldb, const float *beta, float *C, int ldc);
trnblasStatus_t trnblasDsymm(trnblasHandle_t handle, trnblasSideMode_t side, trnblasFillMode_t uplo,
                             int m, int n, const double *alpha, const double *A, int lda,
                             const double *B, int ldb, const double *beta, double *C, int ldc);
trnblasStatus_t trnblasCsymm(trnblasHandle_t handle, trnblasSideMode_t side, trnblasFillMode_t uplo,
                             int m, int n, const trnComplex *alpha, const trnComplex *A, int lda,
                             const trnComplex *B, int ldb, const trnComplex *beta, trnComplex *C,
                             int ldc);
trnblasStatus_t trnblasZsymm(trnblasHandle_t handle, trnblasSideMode_t side, trnblasFillMode_t uplo,
                             int m, int n, const trnDoubleComplex *alpha, const trnDoubleComplex *A,
                             int lda, const trnDoubleComplex *B, int ldb,
                             const trnDoubleComplex *beta, trnDoubleComplex *C, int ldc);
/* symm with A Hermitian (the imaginary parts of its diagonal taken as 0). */
trnblasStatus_t trnblasChemm(trnblasHandle_t handle, trnblasSideMode_t side, trnblasFillMode_t uplo,
                             int m, int n, const trnComplex *alpha, const trnComplex *A, int lda,
                             const trnComplex *B, int ldb, const trnComplex *beta, trnComplex *C,
                             int ldc);
trnblasStatus_t trnblasZhemm(trnblasHandle_t handle, trnblasSideMode_t side, trnblasFillMode_t uplo,
                             int m, int n, const trnDoubleComplex *alpha, const trnDoubleComplex *A,
                             int lda, const trnDoubleComplex *B, int ldb,
                             const trnDoubleComplex *beta, trnDoubleComplex *C, int ldc);
/* C = alpha op(A) op(A)^T + beta C, the uplo triangle of C n x n; op(A) is
 * n x k (trans OP_N: A is n x k, lda >= max(1, n); OP_T: k x n, lda >= max(1, k);
 * OP_C only for S and D). */
trnblasStatus_t trnblasSsyrk(trnblasHandle_t handle, trnblasFillMode_t uplo,
                             trnblasOperation_t trans, int n, int k, const float *alpha,
                             const float *A, int lda, const float *beta, float *C, int ldc);
trnblasStatus_t trnblasDsyrk(trnblasHandle_t handle, trnblasFillMode_t uplo,
                             trnblasOperation_t trans, int n, int k, const double *alpha,
                             const double *A, int lda, const double *beta, double *C, int ldc);
trnblasStatus_t trnblasCsyrk(trnblasHandle_t handle, trnblasFillMode_t uplo,
                             trnblasOperation_t trans, int n, int k, const trnComplex *alpha,
                             const trnComplex *A, int lda, const trnComplex *beta, trnComplex *C,
                             int ldc);
trnblasStatus_t trnblasZsyrk(trnblasHandle_t handle, trnblasFillMode_t uplo,
                             trnblasOperation_t trans, int n, int k, const trnDoubleComplex *alpha,
                             const trnDoubleComplex *A, int lda, const trnDoubleComplex *beta,
                             trnDoubleComplex *C, int ldc);
/* C = alpha op(A) op(A)^H + beta C with alpha and beta real, the uplo
 * triangle (trans OP_N or OP_C); the diagonal's imaginary parts are set to 0. */
trnblasStatus_t trnblasCherk(trnblasHandle_t handle, trnblasFillMode_t uplo,
                             trnblasOperation_t trans, int n, int k, const float *alpha,
                             const trnComplex *A, int lda, const float *beta, trnComplex *C,
                             int ldc);
trnblasStatus_t trnblasZherk(trnblasHandle_t handle, trnblasFillMode_t uplo,
                             trnblasOperation_t trans, int n, int k, const double *alpha,
                             const trnDoubleComplex *A, int lda, const double *beta,
                             trnDoubleComplex *C, int ldc);
/* C = alpha (op(A) op(B)^T + op(B) op(A)^T) + beta C, the uplo triangle; A and
 * B as A of syrk. */
trnblasStatus_t trnblasSsyr2k(trnblasHandle_t handle, trnblasFillMode_t uplo,
                              trnblasOperation_t trans, int n, int k, const float *alpha,
                              const float *A, int lda, const float *B, int ldb, const float *beta,
                              float *C, int ldc);
trnblasStatus_t trnblasDsyr2k(trnblasHandle_t handle, trnblasFillMode_t uplo,
                              trnblasOperation_t trans, int n, int k, const double *alpha,
                              const double *A, int lda, const double *B, int ldb,
                              const double *beta, double *C, int ldc);
trnblasStatus_t trnblasCsyr2k(trnblasHandle_t handle, trnblasFillMode_t uplo,
                              trnblasOperation_t trans, int n, int k, const trnComplex *alpha,
                              const trnComplex *A, int lda, const trnComplex *B, int ldb,
                              const trnComplex *beta, trnComplex *C, int ldc);
trnblasStatus_t trnblasZsyr2k(trnblasHandle_t handle, trnblasFillMode_t uplo,
                              trnblasOperation_t trans, int n, int k, const trnDoubleComplex *alpha,
                              const trnDoubleComplex *A, int lda, const trnDoubleComplex *B,
                              int ldb, const trnDoubleComplex *beta, trnDoubleComplex *C, int ldc);
/* C = alpha op(A) op(B)^H + conj(alpha) op(B) op(A)^H + beta C with beta real,
 * the uplo triangle (trans OP_N or OP_C). */
trnblasStatus_t trnblasCher2k(trnblasHandle_t handle, trnblasFillMode_t uplo,
                              trnblasOperation_t trans, int n, int k, const trnComplex *alpha,
                              const trnComplex *A, int lda, const trnComplex *B, int ldb,
                              const float *beta, trnComplex *C, int ldc);
trnblasStatus_t trnblasZher2k(trnblasHandle_t handle, trnblasFillMode_t uplo,
                              trnblasOperation_t trans, int n, int k, const trnDoubleComplex *alpha,
                              const trnDoubleComplex *A, int lda, const trnDoubleComplex *B,
                              int ldb, const double *beta, trnDoubleComplex *C, int ldc);
/* C = alpha op(A) op(B)^T + beta C, the uplo triangle (cuBLAS's syrkx: a
 * syrk whose result is known to be symmetric, e.g. B = A D); A and B as A
 * of syrk (trans OP_N or OP_T for C and Z). */
trnblasStatus_t trnblasSsyrkx(trnblasHandle_t handle, trnblasFillMode_t uplo,
                              trnblasOperation_t trans, int n, int k, const float *alpha,
                              const float *A, int lda, const float *B, int ldb, const float *beta,
                              float *C, int ldc);
trnblasStatus_t trnblasDsyrkx(trnblasHandle_t handle, trnblasFillMode_t uplo,
                              trnblasOperation_t trans, int n, int k, const double *alpha,
                              const double *A, int lda, const double *B, int ldb,
                              const double *beta, double *C, int ldc);
trnblasStatus_t trnblasCsyrkx(trnblasHandle_t handle, trnblasFillMode_t uplo,
                              trnblasOperation_t trans, int n, int k, const trnComplex *alpha,
                              const trnComplex *A, int lda, const trnComplex *B, int ldb,
                              const trnComplex *beta, trnComplex *C, int ldc);
trnblasStatus_t trnblasZsyrkx(trnblasHandle_t handle, trnblasFillMode_t uplo,
                              trnblasOperation_t trans, int n, int k, const trnDoubleComplex *alpha,
                              const trnDoubleComplex *A, int lda, const trnDoubleComplex *B,
                              int ldb, const trnDoubleComplex *beta, trnDoubleComplex *C, int ldc);
/* C = alpha op(A) op(B)^H + beta C with beta real, the uplo triangle
 * (trans OP_N or OP_C); the diagonal's imaginary parts are set to 0. */
trnblasStatus_t trnblasCherkx(trnblasHandle_t handle, trnblasFillMode_t uplo,
                              trnblasOperation_t trans, int n, int k, const trnComplex *alpha,
                              const trnComplex *A, int lda, const trnComplex *B, int ldb,
                              const float *beta, trnComplex *C, int ldc);
trnblasStatus_t trnblasZherkx(trnblasHandle_t handle, trnblasFillMode_t uplo,
                              trnblasOperation_t trans, int n, int k, const trnDoubleComplex *alpha,
                              const trnDoubleComplex *A, int lda, const trnDoubleComplex *B,
                              int ldb, const double *beta, trnDoubleComplex *C, int ldc);
/* Solves op(A) X = alpha B (side LEFT, A m x m) or X op(A) = alpha B (RIGHT, A
 * n x n) and overwrites B (m x n) with X; A triangular as for trmv. No test
 * for singularity is made. */
trnblasStatus_t trnblasStrsm(trnblasHandle_t handle, trnblasSideMode_t side, trnblasFillMode_t uplo,
                             trnblasOperation_t trans, trnblasDiagType_t diag, int m, int n,
                             const float *alpha, const float *A, int lda, float *B, int ldb);
trnblasStatus_t trnblasDtrsm(trnblasHandle_t handle, trnblasSideMode_t side, trnblasFillMode_t uplo,
                             trnblasOperation_t trans, trnblasDiagType_t diag, int m, int n,
                             const double *alpha, const double *A, int lda, double *B, int ldb);
trnblasStatus_t trnblasCtrsm(trnblasHandle_t handle, trnblasSideMode_t side, trnblasFillMode_t uplo,
                             trnblasOperation_t trans, trnblasDiagType_t diag, int m, int n,
                             const trnComplex *alpha, const trnComplex *A, int lda, trnComplex *B,
                             int ldb);
trnblasStatus_t trnblasZtrsm(trnblasHandle_t handle, trnblasSideMode_t side, trnblasFillMode_t uplo,
                             trnblasOperation_t trans, trnblasDiagType_t diag, int m, int n,
                             const trnDoubleComplex *alpha, const trnDoubleComplex *A, int lda,
                             trnDoubleComplex *B, int ldb);
/* C = alpha op(A) B (LEFT) or alpha B op(A) (RIGHT), A triangular; out of place
 * as in cuBLAS (pass C = B, ldc = ldb, for BLAS's in-place form). */
trnblasStatus_t trnblasStrmm(trnblasHandle_t handle, trnblasSideMode_t side, trnblasFillMode_t uplo,
                             trnblasOperation_t trans, trnblasDiagType_t diag, int m, int n,
                             const float *alpha, const float *A, int lda, const float *B, int ldb,
                             float *C, int ldc);
trnblasStatus_t trnblasDtrmm(trnblasHandle_t handle, trnblasSideMode_t side, trnblasFillMode_t uplo,
                             trnblasOperation_t trans, trnblasDiagType_t diag, int m, int n,
                             const double *alpha, const double *A, int lda, const double *B,
                             int ldb, double *C, int ldc);
trnblasStatus_t trnblasCtrmm(trnblasHandle_t handle, trnblasSideMode_t side, trnblasFillMode_t uplo,
                             trnblasOperation_t trans, trnblasDiagType_t diag, int m, int n,
                             const trnComplex *alpha, const trnComplex *A, int lda,
                             const trnComplex *B, int ldb, trnComplex *C, int ldc);
trnblasStatus_t trnblasZtrmm(trnblasHandle_t handle, trnblasSideMode_t side, trnblasFillMode_t uplo,
                             trnblasOperation_t trans, trnblasDiagType_t diag, int m, int n,
                             const trnDoubleComplex *alpha, const trnDoubleComplex *A, int lda,
                             const trnDoubleComplex *B, int ldb, trnDoubleComplex *C, int ldc);
/* C = alpha op(A) + beta op(B), all m x n after the operations (cuBLAS
 * extension). A is not read when alpha = 0, B not when beta = 0. In place: C = A
 * needs ldc = lda and transa OP_N, C = B ldc = ldb and transb OP_N
 * (TRNBLAS_STATUS_INVALID_VALUE otherwise). */
trnblasStatus_t trnblasSgeam(trnblasHandle_t handle, trnblasOperation_t transa,
                             trnblasOperation_t transb, int m, int n, const float *alpha,
                             const float *A, int lda, const float *beta, const float *B, int ldb,
                             float *C, int ldc);
trnblasStatus_t trnblasDgeam(trnblasHandle_t handle, trnblasOperation_t transa,
                             trnblasOperation_t transb, int m, int n, const double *alpha,
                             const double *A, int lda, const double *beta, const double *B, int ldb,
                             double *C, int ldc);
trnblasStatus_t trnblasCgeam(trnblasHandle_t handle, trnblasOperation_t transa,
                             trnblasOperation_t transb, int m, int n, const trnComplex *alpha,
                             const trnComplex *A, int lda, const trnComplex *beta,
                             const trnComplex *B, int ldb, trnComplex *C, int ldc);
trnblasStatus_t trnblasZgeam(trnblasHandle_t handle, trnblasOperation_t transa,
                             trnblasOperation_t transb, int m, int n, const trnDoubleComplex *alpha,
                             const trnDoubleComplex *A, int lda, const trnDoubleComplex *beta,
                             const trnDoubleComplex *B, int ldb, trnDoubleComplex *C, int ldc);
/* C = diag(x) A (mode LEFT, x has m elements) or A diag(x) (RIGHT, n
 * elements); A and C m x n; any incx (0 repeats x[0]; negative: reference BLAS
 * order). C may be A with ldc = lda (cuBLAS extension). */
trnblasStatus_t trnblasSdgmm(trnblasHandle_t handle, trnblasSideMode_t mode, int m, int n,
                             const float *A, int lda, const float *x, int incx, float *C, int ldc);
trnblasStatus_t trnblasDdgmm(trnblasHandle_t handle, trnblasSideMode_t mode, int m, int n,
                             const double *A, int lda, const double *x, int incx, double *C,
                             int ldc);
trnblasStatus_t trnblasCdgmm(trnblasHandle_t handle, trnblasSideMode_t mode, int m, int n,
                             const trnComplex *A, int lda, const trnComplex *x, int incx,
                             trnComplex *C, int ldc);
trnblasStatus_t trnblasZdgmm(trnblasHandle_t handle, trnblasSideMode_t mode, int m, int n,
                             const trnDoubleComplex *A, int lda, const trnDoubleComplex *x,
                             int incx, trnDoubleComplex *C, int ldc);

/* ---- Batched LU (cuBLAS's getrfBatched, getrsBatched, getriBatched, matinvBatched) --------
 *
 * Each routine works on batchSize n x n matrices listed in a device array of
 * device pointers (Aarray, read when the routine is called, after the
 * handle's stream's earlier work; docs/rosetta.md), column-major with
 * leading dimension lda, and is split over the daemon's cores by matrices.
 * The pivot array holds n 1-based LAPACK pivots per matrix (matrix i's at
 * PivotArray + i*n); info arrays hold one int per matrix. Every array is
 * device memory, as with cuBLAS. Matrices a routine writes may not overlap
 * one another or what it reads (TRNBLAS_STATUS_INVALID_VALUE).
 *
 * getrfBatched: A_i = P_i L_i U_i in place (partial pivoting), or A_i = L_i
 *   U_i when PivotArray is NULL; infoArray[i] = k > 0 when U_i(k,k) is
 *   exactly zero (the factorisation is completed), else 0.
 * getrsBatched: solves op(A_i) X_i = B_i in place in Barray[i] (n x nrhs,
 *   ldb) with getrfBatched's factors (devIpiv NULL: factors without
 *   pivoting). info is a host pointer: 0, or -j when argument j (counting
 *   from trans, LAPACK's way) is invalid, which also returns
 *   TRNBLAS_STATUS_INVALID_VALUE.
 * getriBatched: Carray[i] = inv(A_i) from getrfBatched's factors, out of
 *   place (ldc); infoArray[i] = k > 0 when U_i(k,k) is zero (Carray[i] is
 *   then left as it was).
 * matinvBatched: Ainv[i] = inv(A[i]) of the matrices themselves (not
 *   factors; A is not modified), n <= 32; info[i] = k > 0 when A[i] is
 *   singular (U(k,k) of its pivoted LU is zero).
 * TRNBLAS_STATUS_INVALID_VALUE for n < 0, nrhs < 0, an unknown trans, a
 * leading dimension below max(1, n), batchSize < 0, a pointer that is not
 * inside a trnsci allocation, or a matrix that runs past its allocation. */
trnblasStatus_t trnblasSgetrfBatched(trnblasHandle_t handle, int n, float *const Aarray[], int lda,
                                     int *PivotArray, int *infoArray, int batchSize);
trnblasStatus_t trnblasDgetrfBatched(trnblasHandle_t handle, int n, double *const Aarray[], int lda,
                                     int *PivotArray, int *infoArray, int batchSize);
trnblasStatus_t trnblasCgetrfBatched(trnblasHandle_t handle, int n, trnComplex *const Aarray[],
                                     int lda, int *PivotArray, int *infoArray, int batchSize);
trnblasStatus_t trnblasZgetrfBatched(trnblasHandle_t handle, int n,
                                     trnDoubleComplex *const Aarray[], int lda, int *PivotArray,
                                     int *infoArray, int batchSize);
trnblasStatus_t trnblasSgetrsBatched(trnblasHandle_t handle, trnblasOperation_t trans, int n,
                                     int nrhs, const float *const Aarray[], int lda,
                                     const int *devIpiv, float *const Barray[], int ldb, int *info,
                                     int batchSize);
trnblasStatus_t trnblasDgetrsBatched(trnblasHandle_t handle, trnblasOperation_t trans, int n,
                                     int nrhs, const double *const Aarray[], int lda,
                                     const int *devIpiv, double *const Barray[], int ldb, int *info,
                                     int batchSize);
trnblasStatus_t trnblasCgetrsBatched(trnblasHandle_t handle, trnblasOperation_t trans, int n,
                                     int nrhs, const trnComplex *const Aarray[], int lda,
                                     const int *devIpiv, trnComplex *const Barray[], int ldb,
                                     int *info, int batchSize);
trnblasStatus_t trnblasZgetrsBatched(trnblasHandle_t handle, trnblasOperation_t trans, int n,
                                     int nrhs, const trnDoubleComplex *const Aarray[], int lda,
                                     const int *devIpiv, trnDoubleComplex *const Barray[], int ldb,
                                     int *info, int batchSize);
trnblasStatus_t trnblasSgetriBatched(trnblasHandle_t handle, int n, const float *const Aarray[],
                                     int lda, const int *PivotArray, float *const Carray[], int ldc,
                                     int *infoArray, int batchSize);
trnblasStatus_t trnblasDgetriBatched(trnblasHandle_t handle, int n, const double *const Aarray[],
                                     int lda, const int *PivotArray, double *const Carray[],
                                     int ldc, int *infoArray, int batchSize);
trnblasStatus_t trnblasCgetriBatched(trnblasHandle_t handle, int n,
                                     const trnComplex *const Aarray[], int lda,
                                     const int *PivotArray, trnComplex *const Carray[], int ldc,
                                     int *infoArray, int batchSize);
trnblasStatus_t trnblasZgetriBatched(trnblasHandle_t handle, int n,
                                     const trnDoubleComplex *const Aarray[], int lda,
                                     const int *PivotArray, trnDoubleComplex *const Carray[],
                                     int ldc, int *infoArray, int batchSize);
trnblasStatus_t trnblasSmatinvBatched(trnblasHandle_t handle, int n, const float *const A[],
                                      int lda, float *const Ainv[], int lda_inv, int *info,
                                      int batchSize);
trnblasStatus_t trnblasDmatinvBatched(trnblasHandle_t handle, int n, const double *const A[],
                                      int lda, double *const Ainv[], int lda_inv, int *info,
                                      int batchSize);
trnblasStatus_t trnblasCmatinvBatched(trnblasHandle_t handle, int n, const trnComplex *const A[],
                                      int lda, trnComplex *const Ainv[], int lda_inv, int *info,
                                      int batchSize);
trnblasStatus_t trnblasZmatinvBatched(trnblasHandle_t handle, int n,
                                      const trnDoubleComplex *const A[], int lda,
                                      trnDoubleComplex *const Ainv[], int lda_inv, int *info,
                                      int batchSize);

/* ---- Batched QR and triangular solves (cuBLAS's geqrfBatched, gelsBatched, trsmBatched) -----
 *
 * Pointer-array batches as for the batched LU above: the device arrays of
 * device pointers are read when the routine is called, after the handle's
 * stream's earlier work (docs/rosetta.md); matrices are column-major.
 *
 * geqrfBatched: A_i = Q_i R_i in place for batchSize m x n matrices (lda >=
 *   max(1, m)), as LAPACK's geqrf: R on and above the diagonal, the
 *   Householder vectors of Q below it, their min(m, n) scalars in the device
 *   vector TauArray[i]. Any m, n >= 0. info is a host int: 0, or -j when
 *   argument j (counting from m: m 1, n 2, lda 4, batchSize 7) is invalid,
 *   which also returns TRNBLAS_STATUS_INVALID_VALUE. Split over cores by
 *   matrices (one BlasLuBatchedOp per 4096 matrices).
 * gelsBatched: the least squares solutions of the overdetermined systems
 *   min ||C_i - A_i X_i|| (m x n A_i with m >= n and full rank, m x nrhs
 *   C_i, lda and ldc >= max(1, m)): A_i is overwritten by its QR factors
 *   (tau not returned), the first n rows of Carray[i] by X_i. Only trans =
 *   TRNBLAS_OP_N and m >= n are supported (TRNBLAS_STATUS_NOT_SUPPORTED
 *   otherwise, as cuBLAS). info is a host int: 0, or -j for the first
 *   invalid argument j counting from trans (trans 1, m 2, n 3, nrhs 4, lda
 *   6, ldc 8, batchSize 11; INVALID_VALUE), and for the unsupported cases -1
 *   (trans) or -2 (m < n) with NOT_SUPPORTED (a trnsci choice: cuBLAS does
 *   not document info there). devInfoArray (device, optional) gets per
 *   matrix 0, or k > 0 when R_i(k,k) is exactly zero (A_i is rank
 *   deficient; Carray[i] then holds Q_i^H C_i, as LAPACK's gels leaves it).
 * trsmBatched: solves op(A_i) X_i = alpha B_i (side LEFT) or X_i op(A_i) =
 *   alpha B_i (RIGHT) in place in Barray[i] (m x n, ldb >= max(1, m)); A_i
 *   is triangular (uplo, diag), m x m or n x n, lda >= max(1, that). alpha
 *   is host or device memory by the pointer mode. INVALID_VALUE as trsm's
 *   (an unknown side, uplo, trans or diag, m or n < 0, a leading dimension
 *   too small) and for batchCount < 0; batchCount = 0 does nothing. Each
 *   matrix travels as one trsm op, queued in batch order after all were
 *   checked (an invalid entry fails the call with nothing queued, naming
 *   the entry); each runs on one core or is split into tiles as trsm is. */
trnblasStatus_t trnblasSgeqrfBatched(trnblasHandle_t handle, int m, int n, float *const Aarray[],
                                     int lda, float *const TauArray[], int *info, int batchSize);
trnblasStatus_t trnblasDgeqrfBatched(trnblasHandle_t handle, int m, int n, double *const Aarray[],
                                     int lda, double *const TauArray[], int *info, int batchSize);
trnblasStatus_t trnblasCgeqrfBatched(trnblasHandle_t handle, int m, int n,
                                     trnComplex *const Aarray[], int lda,
                                     trnComplex *const TauArray[], int *info, int batchSize);
trnblasStatus_t trnblasZgeqrfBatched(trnblasHandle_t handle, int m, int n,
                                     trnDoubleComplex *const Aarray[], int lda,
                                     trnDoubleComplex *const TauArray[], int *info, int batchSize);
trnblasStatus_t trnblasSgelsBatched(trnblasHandle_t handle, trnblasOperation_t trans, int m, int n,
                                    int nrhs, float *const Aarray[], int lda, float *const Carray[],
                                    int ldc, int *info, int *devInfoArray, int batchSize);
trnblasStatus_t trnblasDgelsBatched(trnblasHandle_t handle, trnblasOperation_t trans, int m, int n,
                                    int nrhs, double *const Aarray[], int lda,
                                    double *const Carray[], int ldc, int *info, int *devInfoArray,
                                    int batchSize);
trnblasStatus_t trnblasCgelsBatched(trnblasHandle_t handle, trnblasOperation_t trans, int m, int n,
                                    int nrhs, trnComplex *const Aarray[], int lda,
                                    trnComplex *const Carray[], int ldc, int *info,
                                    int *devInfoArray, int batchSize);
trnblasStatus_t trnblasZgelsBatched(trnblasHandle_t handle, trnblasOperation_t trans, int m, int n,
                                    int nrhs, trnDoubleComplex *const Aarray[], int lda,
                                    trnDoubleComplex *const Carray[], int ldc, int *info,
                                    int *devInfoArray, int batchSize);
trnblasStatus_t trnblasStrsmBatched(trnblasHandle_t handle, trnblasSideMode_t side,
                                    trnblasFillMode_t uplo, trnblasOperation_t trans,
                                    trnblasDiagType_t diag, int m, int n, const float *alpha,
                                    const float *const A[], int lda, float *const B[], int ldb,
                                    int batchCount);
trnblasStatus_t trnblasDtrsmBatched(trnblasHandle_t handle, trnblasSideMode_t side,
                                    trnblasFillMode_t uplo, trnblasOperation_t trans,
                                    trnblasDiagType_t diag, int m, int n, const double *alpha,
                                    const double *const A[], int lda, double *const B[], int ldb,
                                    int batchCount);
trnblasStatus_t trnblasCtrsmBatched(trnblasHandle_t handle, trnblasSideMode_t side,
                                    trnblasFillMode_t uplo, trnblasOperation_t trans,
                                    trnblasDiagType_t diag, int m, int n, const trnComplex *alpha,
                                    const trnComplex *const A[], int lda, trnComplex *const B[],
                                    int ldb, int batchCount);
trnblasStatus_t trnblasZtrsmBatched(trnblasHandle_t handle, trnblasSideMode_t side,
                                    trnblasFillMode_t uplo, trnblasOperation_t trans,
                                    trnblasDiagType_t diag, int m, int n,
                                    const trnDoubleComplex *alpha,
                                    const trnDoubleComplex *const A[], int lda,
                                    trnDoubleComplex *const B[], int ldb, int batchCount);
/* The ILP64 forms (cuBLAS 12's trsmBatched_64): m, n, lda, ldb and
 * batchCount must fit in int (TRNBLAS_STATUS_NOT_SUPPORTED naming the
 * argument otherwise); then as trsmBatched. */
trnblasStatus_t trnblasStrsmBatched_64(trnblasHandle_t handle, trnblasSideMode_t side,
                                       trnblasFillMode_t uplo, trnblasOperation_t trans,
                                       trnblasDiagType_t diag, int64_t m, int64_t n,
                                       const float *alpha, const float *const A[], int64_t lda,
                                       float *const B[], int64_t ldb, int64_t batchCount);
trnblasStatus_t trnblasDtrsmBatched_64(trnblasHandle_t handle, trnblasSideMode_t side,
                                       trnblasFillMode_t uplo, trnblasOperation_t trans,
                                       trnblasDiagType_t diag, int64_t m, int64_t n,
                                       const double *alpha, const double *const A[], int64_t lda,
                                       double *const B[], int64_t ldb, int64_t batchCount);
trnblasStatus_t trnblasCtrsmBatched_64(trnblasHandle_t handle, trnblasSideMode_t side,
                                       trnblasFillMode_t uplo, trnblasOperation_t trans,
                                       trnblasDiagType_t diag, int64_t m, int64_t n,
                                       const trnComplex *alpha, const trnComplex *const A[],
                                       int64_t lda, trnComplex *const B[], int64_t ldb,
                                       int64_t batchCount);
trnblasStatus_t
trnblasZtrsmBatched_64(trnblasHandle_t handle, trnblasSideMode_t side, trnblasFillMode_t uplo,
                       trnblasOperation_t trans, trnblasDiagType_t diag, int64_t m, int64_t n,
                       const trnDoubleComplex *alpha, const trnDoubleComplex *const A[],
                       int64_t lda, trnDoubleComplex *const B[], int64_t ldb, int64_t batchCount);

/* ---- ILP64 forms (cuBLAS 12's *_64 routines) ------------------------------
 * trnblasX_64 is trnblasX with int64_t in place of each int argument (sizes,
 * increments, leading dimensions, elemSize, batch counts) and int64_t
 * *result for i?amax_64 and i?amin_64 (written as the 32-bit routine writes
 * its int, in either pointer mode); strides stay long long. trnsci's wire
 * carries 32-bit dimensions: when every such argument fits in int the call
 * is the 32-bit routine's, otherwise it returns TRNBLAS_STATUS_NOT_SUPPORTED
 * without doing anything, and trnsciGetLastErrorMessage names the argument
 * and its value. Helper functions, then Level 1 (with the *Ex routines),
 * Level 2, the GEMM family and Level 3, in the order of the 32-bit
 * declarations above. */
/* Helpers (cublasSetMatrix_64, ...): elemSize too must fit. */
trnblasStatus_t trnblasSetMatrix_64(int64_t rows, int64_t cols, int64_t elemSize, const void *A,
                                    int64_t lda, void *B, int64_t ldb);
trnblasStatus_t trnblasGetMatrix_64(int64_t rows, int64_t cols, int64_t elemSize, const void *A,
                                    int64_t lda, void *B, int64_t ldb);
trnblasStatus_t trnblasSetMatrixAsync_64(int64_t rows, int64_t cols, int64_t elemSize,
                                         const void *A, int64_t lda, void *B, int64_t ldb,
                                         trnsciStream_t stream);
trnblasStatus_t trnblasGetMatrixAsync_64(int64_t rows, int64_t cols, int64_t elemSize,
                                         const void *A, int64_t lda, void *B, int64_t ldb,
                                         trnsciStream_t stream);
trnblasStatus_t trnblasSetVector_64(int64_t n, int64_t elemSize, const void *x, int64_t incx,
                                    void *devicePtr, int64_t incy);
trnblasStatus_t trnblasGetVector_64(int64_t n, int64_t elemSize, const void *x, int64_t incx,
                                    void *y, int64_t incy);
trnblasStatus_t trnblasSetVectorAsync_64(int64_t n, int64_t elemSize, const void *hostPtr,
                                         int64_t incx, void *devicePtr, int64_t incy,
                                         trnsciStream_t stream);
trnblasStatus_t trnblasGetVectorAsync_64(int64_t n, int64_t elemSize, const void *devicePtr,
                                         int64_t incx, void *hostPtr, int64_t incy,
                                         trnsciStream_t stream);
/* Level 1. */
trnblasStatus_t trnblasSaxpy_64(trnblasHandle_t handle, int64_t n, const float *alpha,
                                const float *x, int64_t incx, float *y, int64_t incy);
trnblasStatus_t trnblasDaxpy_64(trnblasHandle_t handle, int64_t n, const double *alpha,
                                const double *x, int64_t incx, double *y, int64_t incy);
trnblasStatus_t trnblasCaxpy_64(trnblasHandle_t handle, int64_t n, const trnComplex *alpha,
                                const trnComplex *x, int64_t incx, trnComplex *y, int64_t incy);
trnblasStatus_t trnblasZaxpy_64(trnblasHandle_t handle, int64_t n, const trnDoubleComplex *alpha,
                                const trnDoubleComplex *x, int64_t incx, trnDoubleComplex *y,
                                int64_t incy);
trnblasStatus_t trnblasSscal_64(trnblasHandle_t handle, int64_t n, const float *alpha, float *x,
                                int64_t incx);
trnblasStatus_t trnblasDscal_64(trnblasHandle_t handle, int64_t n, const double *alpha, double *x,
                                int64_t incx);
trnblasStatus_t trnblasCscal_64(trnblasHandle_t handle, int64_t n, const trnComplex *alpha,
                                trnComplex *x, int64_t incx);
trnblasStatus_t trnblasZscal_64(trnblasHandle_t handle, int64_t n, const trnDoubleComplex *alpha,
                                trnDoubleComplex *x, int64_t incx);
trnblasStatus_t trnblasCsscal_64(trnblasHandle_t handle, int64_t n, const float *alpha,
                                 trnComplex *x, int64_t incx);
trnblasStatus_t trnblasZdscal_64(trnblasHandle_t handle, int64_t n, const double *alpha,
                                 trnDoubleComplex *x, int64_t incx);
trnblasStatus_t trnblasScopy_64(trnblasHandle_t handle, int64_t n, const float *x, int64_t incx,
                                float *y, int64_t incy);
trnblasStatus_t trnblasDcopy_64(trnblasHandle_t handle, int64_t n, const double *x, int64_t incx,
                                double *y, int64_t incy);
trnblasStatus_t trnblasCcopy_64(trnblasHandle_t handle, int64_t n, const trnComplex *x,
                                int64_t incx, trnComplex *y, int64_t incy);
trnblasStatus_t trnblasZcopy_64(trnblasHandle_t handle, int64_t n, const trnDoubleComplex *x,
                                int64_t incx, trnDoubleComplex *y, int64_t incy);
trnblasStatus_t trnblasSswap_64(trnblasHandle_t handle, int64_t n, float *x, int64_t incx, float *y,
                                int64_t incy);
trnblasStatus_t trnblasDswap_64(trnblasHandle_t handle, int64_t n, double *x, int64_t incx,
                                double *y, int64_t incy);
trnblasStatus_t trnblasCswap_64(trnblasHandle_t handle, int64_t n, trnComplex *x, int64_t incx,
                                trnComplex *y, int64_t incy);
trnblasStatus_t trnblasZswap_64(trnblasHandle_t handle, int64_t n, trnDoubleComplex *x,
                                int64_t incx, trnDoubleComplex *y, int64_t incy);
trnblasStatus_t trnblasSdot_64(trnblasHandle_t handle, int64_t n, const float *x, int64_t incx,
                               const float *y, int64_t incy, float *result);
trnblasStatus_t trnblasDdot_64(trnblasHandle_t handle, int64_t n, const double *x, int64_t incx,
                               const double *y, int64_t incy, double *result);
trnblasStatus_t trnblasCdotu_64(trnblasHandle_t handle, int64_t n, const trnComplex *x,
                                int64_t incx, const trnComplex *y, int64_t incy,
                                trnComplex *result);
trnblasStatus_t trnblasCdotc_64(trnblasHandle_t handle, int64_t n, const trnComplex *x,
                                int64_t incx, const trnComplex *y, int64_t incy,
                                trnComplex *result);
trnblasStatus_t trnblasZdotu_64(trnblasHandle_t handle, int64_t n, const trnDoubleComplex *x,
                                int64_t incx, const trnDoubleComplex *y, int64_t incy,
                                trnDoubleComplex *result);
trnblasStatus_t trnblasZdotc_64(trnblasHandle_t handle, int64_t n, const trnDoubleComplex *x,
                                int64_t incx, const trnDoubleComplex *y, int64_t incy,
                                trnDoubleComplex *result);
trnblasStatus_t trnblasSnrm2_64(trnblasHandle_t handle, int64_t n, const float *x, int64_t incx,
                                float *result);
trnblasStatus_t trnblasDnrm2_64(trnblasHandle_t handle, int64_t n, const double *x, int64_t incx,
                                double *result);
trnblasStatus_t trnblasScnrm2_64(trnblasHandle_t handle, int64_t n, const trnComplex *x,
                                 int64_t incx, float *result);
trnblasStatus_t trnblasDznrm2_64(trnblasHandle_t handle, int64_t n, const trnDoubleComplex *x,
                                 int64_t incx, double *result);
trnblasStatus_t trnblasSasum_64(trnblasHandle_t handle, int64_t n, const float *x, int64_t incx,
                                float *result);
trnblasStatus_t trnblasDasum_64(trnblasHandle_t handle, int64_t n, const double *x, int64_t incx,
                                double *result);
trnblasStatus_t trnblasScasum_64(trnblasHandle_t handle, int64_t n, const trnComplex *x,
                                 int64_t incx, float *result);
trnblasStatus_t trnblasDzasum_64(trnblasHandle_t handle, int64_t n, const trnDoubleComplex *x,
                                 int64_t incx, double *result);
trnblasStatus_t trnblasIsamax_64(trnblasHandle_t handle, int64_t n, const float *x, int64_t incx,
                                 int64_t *result);
trnblasStatus_t trnblasIdamax_64(trnblasHandle_t handle, int64_t n, const double *x, int64_t incx,
                                 int64_t *result);
trnblasStatus_t trnblasIcamax_64(trnblasHandle_t handle, int64_t n, const trnComplex *x,
                                 int64_t incx, int64_t *result);
trnblasStatus_t trnblasIzamax_64(trnblasHandle_t handle, int64_t n, const trnDoubleComplex *x,
                                 int64_t incx, int64_t *result);
trnblasStatus_t trnblasIsamin_64(trnblasHandle_t handle, int64_t n, const float *x, int64_t incx,
                                 int64_t *result);
trnblasStatus_t trnblasIdamin_64(trnblasHandle_t handle, int64_t n, const double *x, int64_t incx,
                                 int64_t *result);
trnblasStatus_t trnblasIcamin_64(trnblasHandle_t handle, int64_t n, const trnComplex *x,
                                 int64_t incx, int64_t *result);
trnblasStatus_t trnblasIzamin_64(trnblasHandle_t handle, int64_t n, const trnDoubleComplex *x,
                                 int64_t incx, int64_t *result);
trnblasStatus_t trnblasSrot_64(trnblasHandle_t handle, int64_t n, float *x, int64_t incx, float *y,
                               int64_t incy, const float *c, const float *s);
trnblasStatus_t trnblasDrot_64(trnblasHandle_t handle, int64_t n, double *x, int64_t incx,
                               double *y, int64_t incy, const double *c, const double *s);
trnblasStatus_t trnblasCrot_64(trnblasHandle_t handle, int64_t n, trnComplex *x, int64_t incx,
                               trnComplex *y, int64_t incy, const float *c, const trnComplex *s);
trnblasStatus_t trnblasZrot_64(trnblasHandle_t handle, int64_t n, trnDoubleComplex *x, int64_t incx,
                               trnDoubleComplex *y, int64_t incy, const double *c,
                               const trnDoubleComplex *s);
trnblasStatus_t trnblasCsrot_64(trnblasHandle_t handle, int64_t n, trnComplex *x, int64_t incx,
                                trnComplex *y, int64_t incy, const float *c, const float *s);
trnblasStatus_t trnblasZdrot_64(trnblasHandle_t handle, int64_t n, trnDoubleComplex *x,
                                int64_t incx, trnDoubleComplex *y, int64_t incy, const double *c,
                                const double *s);
trnblasStatus_t trnblasSrotm_64(trnblasHandle_t handle, int64_t n, float *x, int64_t incx, float *y,
                                int64_t incy, const float *param);
trnblasStatus_t trnblasDrotm_64(trnblasHandle_t handle, int64_t n, double *x, int64_t incx,
                                double *y, int64_t incy, const double *param);
/* Level 1 with explicit types. */
trnblasStatus_t trnblasAxpyEx_64(trnblasHandle_t handle, int64_t n, const void *alpha,
                                 trnsciDataType_t alphaType, const void *x, trnsciDataType_t xType,
                                 int64_t incx, void *y, trnsciDataType_t yType, int64_t incy,
                                 trnsciDataType_t executiontype);
trnblasStatus_t trnblasDotEx_64(trnblasHandle_t handle, int64_t n, const void *x,
                                trnsciDataType_t xType, int64_t incx, const void *y,
                                trnsciDataType_t yType, int64_t incy, void *result,
                                trnsciDataType_t resultType, trnsciDataType_t executionType);
trnblasStatus_t trnblasDotcEx_64(trnblasHandle_t handle, int64_t n, const void *x,
                                 trnsciDataType_t xType, int64_t incx, const void *y,
                                 trnsciDataType_t yType, int64_t incy, void *result,
                                 trnsciDataType_t resultType, trnsciDataType_t executionType);
trnblasStatus_t trnblasNrm2Ex_64(trnblasHandle_t handle, int64_t n, const void *x,
                                 trnsciDataType_t xType, int64_t incx, void *result,
                                 trnsciDataType_t resultType, trnsciDataType_t executionType);
trnblasStatus_t trnblasScalEx_64(trnblasHandle_t handle, int64_t n, const void *alpha,
                                 trnsciDataType_t alphaType, void *x, trnsciDataType_t xType,
                                 int64_t incx, trnsciDataType_t executionType);
trnblasStatus_t trnblasRotEx_64(trnblasHandle_t handle, int64_t n, void *x, trnsciDataType_t xType,
                                int64_t incx, void *y, trnsciDataType_t yType, int64_t incy,
                                const void *c, const void *s, trnsciDataType_t csType,
                                trnsciDataType_t executiontype);
/* Level 2, with the batched gemv. */
trnblasStatus_t trnblasSgemv_64(trnblasHandle_t handle, trnblasOperation_t trans, int64_t m,
                                int64_t n, const float *alpha, const float *A, int64_t lda,
                                const float *x, int64_t incx, const float *beta, float *y,
                                int64_t incy);
trnblasStatus_t trnblasDgemv_64(trnblasHandle_t handle, trnblasOperation_t trans, int64_t m,
                                int64_t n, const double *alpha, const double *A, int64_t lda,
                                const double *x, int64_t incx, const double *beta, double *y,
                                int64_t incy);
trnblasStatus_t trnblasCgemv_64(trnblasHandle_t handle, trnblasOperation_t trans, int64_t m,
                                int64_t n, const trnComplex *alpha, const trnComplex *A,
                                int64_t lda, const trnComplex *x, int64_t incx,
                                const trnComplex *beta, trnComplex *y, int64_t incy);
trnblasStatus_t trnblasZgemv_64(trnblasHandle_t handle, trnblasOperation_t trans, int64_t m,
                                int64_t n, const trnDoubleComplex *alpha, const trnDoubleComplex *A,
                                int64_t lda, const trnDoubleComplex *x, int64_t incx,
                                const trnDoubleComplex *beta, trnDoubleComplex *y, int64_t incy);
trnblasStatus_t trnblasSgbmv_64(trnblasHandle_t handle, trnblasOperation_t trans, int64_t m,
                                int64_t n, int64_t kl, int64_t ku, const float *alpha,
                                const float *A, int64_t lda, const float *x, int64_t incx,
                                const float *beta, float *y, int64_t incy);
trnblasStatus_t trnblasDgbmv_64(trnblasHandle_t handle, trnblasOperation_t trans, int64_t m,
                                int64_t n, int64_t kl, int64_t ku, const double *alpha,
                                const double *A, int64_t lda, const double *x, int64_t incx,
                                const double *beta, double *y, int64_t incy);
trnblasStatus_t trnblasCgbmv_64(trnblasHandle_t handle, trnblasOperation_t trans, int64_t m,
                                int64_t n, int64_t kl, int64_t ku, const trnComplex *alpha,
                                const trnComplex *A, int64_t lda, const trnComplex *x, int64_t incx,
                                const trnComplex *beta, trnComplex *y, int64_t incy);
trnblasStatus_t trnblasZgbmv_64(trnblasHandle_t handle, trnblasOperation_t trans, int64_t m,
                                int64_t n, int64_t kl, int64_t ku, const trnDoubleComplex *alpha,
                                const trnDoubleComplex *A, int64_t lda, const trnDoubleComplex *x,
                                int64_t incx, const trnDoubleComplex *beta, trnDoubleComplex *y,
                                int64_t incy);
trnblasStatus_t trnblasSsymv_64(trnblasHandle_t handle, trnblasFillMode_t uplo, int64_t n,
                                const float *alpha, const float *A, int64_t lda, const float *x,
                                int64_t incx, const float *beta, float *y, int64_t incy);
trnblasStatus_t trnblasDsymv_64(trnblasHandle_t handle, trnblasFillMode_t uplo, int64_t n,
                                const double *alpha, const double *A, int64_t lda, const double *x,
                                int64_t incx, const double *beta, double *y, int64_t incy);
trnblasStatus_t trnblasCsymv_64(trnblasHandle_t handle, trnblasFillMode_t uplo, int64_t n,
                                const trnComplex *alpha, const trnComplex *A, int64_t lda,
                                const trnComplex *x, int64_t incx, const trnComplex *beta,
                                trnComplex *y, int64_t incy);
trnblasStatus_t trnblasZsymv_64(trnblasHandle_t handle, trnblasFillMode_t uplo, int64_t n,
                                const trnDoubleComplex *alpha, const trnDoubleComplex *A,
                                int64_t lda, const trnDoubleComplex *x, int64_t incx,
                                const trnDoubleComplex *beta, trnDoubleComplex *y, int64_t incy);
trnblasStatus_t trnblasChemv_64(trnblasHandle_t handle, trnblasFillMode_t uplo, int64_t n,
                                const trnComplex *alpha, const trnComplex *A, int64_t lda,
                                const trnComplex *x, int64_t incx, const trnComplex *beta,
                                trnComplex *y, int64_t incy);
trnblasStatus_t trnblasZhemv_64(trnblasHandle_t handle, trnblasFillMode_t uplo, int64_t n,
                                const trnDoubleComplex *alpha, const trnDoubleComplex *A,
                                int64_t lda, const trnDoubleComplex *x, int64_t incx,
                                const trnDoubleComplex *beta, trnDoubleComplex *y, int64_t incy);
trnblasStatus_t trnblasStrmv_64(trnblasHandle_t handle, trnblasFillMode_t uplo,
                                trnblasOperation_t trans, trnblasDiagType_t diag, int64_t n,
                                const float *A, int64_t lda, float *x, int64_t incx);
trnblasStatus_t trnblasDtrmv_64(trnblasHandle_t handle, trnblasFillMode_t uplo,
                                trnblasOperation_t trans, trnblasDiagType_t diag, int64_t n,
                                const double *A, int64_t lda, double *x, int64_t incx);
trnblasStatus_t trnblasCtrmv_64(trnblasHandle_t handle, trnblasFillMode_t uplo,
                                trnblasOperation_t trans, trnblasDiagType_t diag, int64_t n,
                                const trnComplex *A, int64_t lda, trnComplex *x, int64_t incx);
trnblasStatus_t trnblasZtrmv_64(trnblasHandle_t handle, trnblasFillMode_t uplo,
                                trnblasOperation_t trans, trnblasDiagType_t diag, int64_t n,
                                const trnDoubleComplex *A, int64_t lda, trnDoubleComplex *x,
                                int64_t incx);
trnblasStatus_t trnblasStrsv_64(trnblasHandle_t handle, trnblasFillMode_t uplo,
                                trnblasOperation_t trans, trnblasDiagType_t diag, int64_t n,
                                const float *A, int64_t lda, float *x, int64_t incx);
trnblasStatus_t trnblasDtrsv_64(trnblasHandle_t handle, trnblasFillMode_t uplo,
                                trnblasOperation_t trans, trnblasDiagType_t diag, int64_t n,
                                const double *A, int64_t lda, double *x, int64_t incx);
trnblasStatus_t trnblasCtrsv_64(trnblasHandle_t handle, trnblasFillMode_t uplo,
                                trnblasOperation_t trans, trnblasDiagType_t diag, int64_t n,
                                const trnComplex *A, int64_t lda, trnComplex *x, int64_t incx);
trnblasStatus_t trnblasZtrsv_64(trnblasHandle_t handle, trnblasFillMode_t uplo,
                                trnblasOperation_t trans, trnblasDiagType_t diag, int64_t n,
                                const trnDoubleComplex *A, int64_t lda, trnDoubleComplex *x,
                                int64_t incx);
trnblasStatus_t trnblasSger_64(trnblasHandle_t handle, int64_t m, int64_t n, const float *alpha,
                               const float *x, int64_t incx, const float *y, int64_t incy, float *A,
                               int64_t lda);
trnblasStatus_t trnblasDger_64(trnblasHandle_t handle, int64_t m, int64_t n, const double *alpha,
                               const double *x, int64_t incx, const double *y, int64_t incy,
                               double *A, int64_t lda);
trnblasStatus_t trnblasCgeru_64(trnblasHandle_t handle, int64_t m, int64_t n,
                                const trnComplex *alpha, const trnComplex *x, int64_t incx,
                                const trnComplex *y, int64_t incy, trnComplex *A, int64_t lda);
trnblasStatus_t trnblasCgerc_64(trnblasHandle_t handle, int64_t m, int64_t n,
                                const trnComplex *alpha, const trnComplex *x, int64_t incx,
                                const trnComplex *y, int64_t incy, trnComplex *A, int64_t lda);
trnblasStatus_t trnblasZgeru_64(trnblasHandle_t handle, int64_t m, int64_t n,
                                const trnDoubleComplex *alpha, const trnDoubleComplex *x,
                                int64_t incx, const trnDoubleComplex *y, int64_t incy,
                                trnDoubleComplex *A, int64_t lda);
trnblasStatus_t trnblasZgerc_64(trnblasHandle_t handle, int64_t m, int64_t n,
                                const trnDoubleComplex *alpha, const trnDoubleComplex *x,
                                int64_t incx, const trnDoubleComplex *y, int64_t incy,
                                trnDoubleComplex *A, int64_t lda);
trnblasStatus_t trnblasSsyr_64(trnblasHandle_t handle, trnblasFillMode_t uplo, int64_t n,
                               const float *alpha, const float *x, int64_t incx, float *A,
                               int64_t lda);
trnblasStatus_t trnblasDsyr_64(trnblasHandle_t handle, trnblasFillMode_t uplo, int64_t n,
                               const double *alpha, const double *x, int64_t incx, double *A,
                               int64_t lda);
trnblasStatus_t trnblasCsyr_64(trnblasHandle_t handle, trnblasFillMode_t uplo, int64_t n,
                               const trnComplex *alpha, const trnComplex *x, int64_t incx,
                               trnComplex *A, int64_t lda);
trnblasStatus_t trnblasZsyr_64(trnblasHandle_t handle, trnblasFillMode_t uplo, int64_t n,
                               const trnDoubleComplex *alpha, const trnDoubleComplex *x,
                               int64_t incx, trnDoubleComplex *A, int64_t lda);
trnblasStatus_t trnblasSsyr2_64(trnblasHandle_t handle, trnblasFillMode_t uplo, int64_t n,
                                const float *alpha, const float *x, int64_t incx, const float *y,
                                int64_t incy, float *A, int64_t lda);
trnblasStatus_t trnblasDsyr2_64(trnblasHandle_t handle, trnblasFillMode_t uplo, int64_t n,
                                const double *alpha, const double *x, int64_t incx, const double *y,
                                int64_t incy, double *A, int64_t lda);
trnblasStatus_t trnblasCsyr2_64(trnblasHandle_t handle, trnblasFillMode_t uplo, int64_t n,
                                const trnComplex *alpha, const trnComplex *x, int64_t incx,
                                const trnComplex *y, int64_t incy, trnComplex *A, int64_t lda);
trnblasStatus_t trnblasZsyr2_64(trnblasHandle_t handle, trnblasFillMode_t uplo, int64_t n,
                                const trnDoubleComplex *alpha, const trnDoubleComplex *x,
                                int64_t incx, const trnDoubleComplex *y, int64_t incy,
                                trnDoubleComplex *A, int64_t lda);
trnblasStatus_t trnblasCher_64(trnblasHandle_t handle, trnblasFillMode_t uplo, int64_t n,
                               const float *alpha, const trnComplex *x, int64_t incx, trnComplex *A,
                               int64_t lda);
trnblasStatus_t trnblasZher_64(trnblasHandle_t handle, trnblasFillMode_t uplo, int64_t n,
                               const double *alpha, const trnDoubleComplex *x, int64_t incx,
                               trnDoubleComplex *A, int64_t lda);
trnblasStatus_t trnblasCher2_64(trnblasHandle_t handle, trnblasFillMode_t uplo, int64_t n,
                                const trnComplex *alpha, const trnComplex *x, int64_t incx,
                                const trnComplex *y, int64_t incy, trnComplex *A, int64_t lda);
trnblasStatus_t trnblasZher2_64(trnblasHandle_t handle, trnblasFillMode_t uplo, int64_t n,
                                const trnDoubleComplex *alpha, const trnDoubleComplex *x,
                                int64_t incx, const trnDoubleComplex *y, int64_t incy,
                                trnDoubleComplex *A, int64_t lda);
trnblasStatus_t trnblasSgemvBatched_64(trnblasHandle_t handle, trnblasOperation_t trans, int64_t m,
                                       int64_t n, const float *alpha, const float *const Aarray[],
                                       int64_t lda, const float *const xarray[], int64_t incx,
                                       const float *beta, float *const yarray[], int64_t incy,
                                       int64_t batchCount);
trnblasStatus_t trnblasDgemvBatched_64(trnblasHandle_t handle, trnblasOperation_t trans, int64_t m,
                                       int64_t n, const double *alpha, const double *const Aarray[],
                                       int64_t lda, const double *const xarray[], int64_t incx,
                                       const double *beta, double *const yarray[], int64_t incy,
                                       int64_t batchCount);
trnblasStatus_t trnblasCgemvBatched_64(trnblasHandle_t handle, trnblasOperation_t trans, int64_t m,
                                       int64_t n, const trnComplex *alpha,
                                       const trnComplex *const Aarray[], int64_t lda,
                                       const trnComplex *const xarray[], int64_t incx,
                                       const trnComplex *beta, trnComplex *const yarray[],
                                       int64_t incy, int64_t batchCount);
trnblasStatus_t trnblasZgemvBatched_64(trnblasHandle_t handle, trnblasOperation_t trans, int64_t m,
                                       int64_t n, const trnDoubleComplex *alpha,
                                       const trnDoubleComplex *const Aarray[], int64_t lda,
                                       const trnDoubleComplex *const xarray[], int64_t incx,
                                       const trnDoubleComplex *beta,
                                       trnDoubleComplex *const yarray[], int64_t incy,
                                       int64_t batchCount);
trnblasStatus_t trnblasSgemvStridedBatched_64(trnblasHandle_t handle, trnblasOperation_t trans,
                                              int64_t m, int64_t n, const float *alpha,
                                              const float *A, int64_t lda, long long int strideA,
                                              const float *x, int64_t incx, long long int stridex,
                                              const float *beta, float *y, int64_t incy,
                                              long long int stridey, int64_t batchCount);
trnblasStatus_t trnblasDgemvStridedBatched_64(trnblasHandle_t handle, trnblasOperation_t trans,
                                              int64_t m, int64_t n, const double *alpha,
                                              const double *A, int64_t lda, long long int strideA,
                                              const double *x, int64_t incx, long long int stridex,
                                              const double *beta, double *y, int64_t incy,
                                              long long int stridey, int64_t batchCount);
trnblasStatus_t trnblasCgemvStridedBatched_64(trnblasHandle_t handle, trnblasOperation_t trans,
                                              int64_t m, int64_t n, const trnComplex *alpha,
                                              const trnComplex *A, int64_t lda,
                                              long long int strideA, const trnComplex *x,
                                              int64_t incx, long long int stridex,
                                              const trnComplex *beta, trnComplex *y, int64_t incy,
                                              long long int stridey, int64_t batchCount);
trnblasStatus_t trnblasZgemvStridedBatched_64(
    trnblasHandle_t handle, trnblasOperation_t trans, int64_t m, int64_t n,
    const trnDoubleComplex *alpha, const trnDoubleComplex *A, int64_t lda, long long int strideA,
    const trnDoubleComplex *x, int64_t incx, long long int stridex, const trnDoubleComplex *beta,
    trnDoubleComplex *y, int64_t incy, long long int stridey, int64_t batchCount);
trnblasStatus_t trnblasStbmv_64(trnblasHandle_t handle, trnblasFillMode_t uplo,
                                trnblasOperation_t trans, trnblasDiagType_t diag, int64_t n,
                                int64_t k, const float *A, int64_t lda, float *x, int64_t incx);
trnblasStatus_t trnblasDtbmv_64(trnblasHandle_t handle, trnblasFillMode_t uplo,
                                trnblasOperation_t trans, trnblasDiagType_t diag, int64_t n,
                                int64_t k, const double *A, int64_t lda, double *x, int64_t incx);
trnblasStatus_t trnblasCtbmv_64(trnblasHandle_t handle, trnblasFillMode_t uplo,
                                trnblasOperation_t trans, trnblasDiagType_t diag, int64_t n,
                                int64_t k, const trnComplex *A, int64_t lda, trnComplex *x,
                                int64_t incx);
trnblasStatus_t trnblasZtbmv_64(trnblasHandle_t handle, trnblasFillMode_t uplo,
                                trnblasOperation_t trans, trnblasDiagType_t diag, int64_t n,
                                int64_t k, const trnDoubleComplex *A, int64_t lda,
                                trnDoubleComplex *x, int64_t incx);
trnblasStatus_t trnblasStpmv_64(trnblasHandle_t handle, trnblasFillMode_t uplo,
                                trnblasOperation_t trans, trnblasDiagType_t diag, int64_t n,
                                const float *AP, float *x, int64_t incx);
trnblasStatus_t trnblasDtpmv_64(trnblasHandle_t handle, trnblasFillMode_t uplo,
                                trnblasOperation_t trans, trnblasDiagType_t diag, int64_t n,
                                const double *AP, double *x, int64_t incx);
trnblasStatus_t trnblasCtpmv_64(trnblasHandle_t handle, trnblasFillMode_t uplo,
                                trnblasOperation_t trans, trnblasDiagType_t diag, int64_t n,
                                const trnComplex *AP, trnComplex *x, int64_t incx);
trnblasStatus_t trnblasZtpmv_64(trnblasHandle_t handle, trnblasFillMode_t uplo,
                                trnblasOperation_t trans, trnblasDiagType_t diag, int64_t n,
                                const trnDoubleComplex *AP, trnDoubleComplex *x, int64_t incx);
trnblasStatus_t trnblasStbsv_64(trnblasHandle_t handle, trnblasFillMode_t uplo,
                                trnblasOperation_t trans, trnblasDiagType_t diag, int64_t n,
                                int64_t k, const float *A, int64_t lda, float *x, int64_t incx);
trnblasStatus_t trnblasDtbsv_64(trnblasHandle_t handle, trnblasFillMode_t uplo,
                                trnblasOperation_t trans, trnblasDiagType_t diag, int64_t n,
                                int64_t k, const double *A, int64_t lda, double *x, int64_t incx);
trnblasStatus_t trnblasCtbsv_64(trnblasHandle_t handle, trnblasFillMode_t uplo,
                                trnblasOperation_t trans, trnblasDiagType_t diag, int64_t n,
                                int64_t k, const trnComplex *A, int64_t lda, trnComplex *x,
                                int64_t incx);
trnblasStatus_t trnblasZtbsv_64(trnblasHandle_t handle, trnblasFillMode_t uplo,
                                trnblasOperation_t trans, trnblasDiagType_t diag, int64_t n,
                                int64_t k, const trnDoubleComplex *A, int64_t lda,
                                trnDoubleComplex *x, int64_t incx);
trnblasStatus_t trnblasStpsv_64(trnblasHandle_t handle, trnblasFillMode_t uplo,
                                trnblasOperation_t trans, trnblasDiagType_t diag, int64_t n,
                                const float *AP, float *x, int64_t incx);
trnblasStatus_t trnblasDtpsv_64(trnblasHandle_t handle, trnblasFillMode_t uplo,
                                trnblasOperation_t trans, trnblasDiagType_t diag, int64_t n,
                                const double *AP, double *x, int64_t incx);
trnblasStatus_t trnblasCtpsv_64(trnblasHandle_t handle, trnblasFillMode_t uplo,
                                trnblasOperation_t trans, trnblasDiagType_t diag, int64_t n,
                                const trnComplex *AP, trnComplex *x, int64_t incx);
trnblasStatus_t trnblasZtpsv_64(trnblasHandle_t handle, trnblasFillMode_t uplo,
                                trnblasOperation_t trans, trnblasDiagType_t diag, int64_t n,
                                const trnDoubleComplex *AP, trnDoubleComplex *x, int64_t incx);
trnblasStatus_t trnblasSsbmv_64(trnblasHandle_t handle, trnblasFillMode_t uplo, int64_t n,
                                int64_t k, const float *alpha, const float *A, int64_t lda,
                                const float *x, int64_t incx, const float *beta, float *y,
                                int64_t incy);
trnblasStatus_t trnblasDsbmv_64(trnblasHandle_t handle, trnblasFillMode_t uplo, int64_t n,
                                int64_t k, const double *alpha, const double *A, int64_t lda,
                                const double *x, int64_t incx, const double *beta, double *y,
                                int64_t incy);
trnblasStatus_t trnblasChbmv_64(trnblasHandle_t handle, trnblasFillMode_t uplo, int64_t n,
                                int64_t k, const trnComplex *alpha, const trnComplex *A,
                                int64_t lda, const trnComplex *x, int64_t incx,
                                const trnComplex *beta, trnComplex *y, int64_t incy);
trnblasStatus_t trnblasZhbmv_64(trnblasHandle_t handle, trnblasFillMode_t uplo, int64_t n,
                                int64_t k, const trnDoubleComplex *alpha, const trnDoubleComplex *A,
                                int64_t lda, const trnDoubleComplex *x, int64_t incx,
                                const trnDoubleComplex *beta, trnDoubleComplex *y, int64_t incy);
trnblasStatus_t trnblasSspmv_64(trnblasHandle_t handle, trnblasFillMode_t uplo, int64_t n,
                                const float *alpha, const float *AP, const float *x, int64_t incx,
                                const float *beta, float *y, int64_t incy);
trnblasStatus_t trnblasDspmv_64(trnblasHandle_t handle, trnblasFillMode_t uplo, int64_t n,
                                const double *alpha, const double *AP, const double *x,
                                int64_t incx, const double *beta, double *y, int64_t incy);
trnblasStatus_t trnblasChpmv_64(trnblasHandle_t handle, trnblasFillMode_t uplo, int64_t n,
                                const trnComplex *alpha, const trnComplex *AP, const trnComplex *x,
                                int64_t incx, const trnComplex *beta, trnComplex *y, int64_t incy);
trnblasStatus_t trnblasZhpmv_64(trnblasHandle_t handle, trnblasFillMode_t uplo, int64_t n,
                                const trnDoubleComplex *alpha, const trnDoubleComplex *AP,
                                const trnDoubleComplex *x, int64_t incx,
                                const trnDoubleComplex *beta, trnDoubleComplex *y, int64_t incy);
trnblasStatus_t trnblasSspr_64(trnblasHandle_t handle, trnblasFillMode_t uplo, int64_t n,
                               const float *alpha, const float *x, int64_t incx, float *AP);
trnblasStatus_t trnblasDspr_64(trnblasHandle_t handle, trnblasFillMode_t uplo, int64_t n,
                               const double *alpha, const double *x, int64_t incx, double *AP);
trnblasStatus_t trnblasChpr_64(trnblasHandle_t handle, trnblasFillMode_t uplo, int64_t n,
                               const float *alpha, const trnComplex *x, int64_t incx,
                               trnComplex *AP);
trnblasStatus_t trnblasZhpr_64(trnblasHandle_t handle, trnblasFillMode_t uplo, int64_t n,
                               const double *alpha, const trnDoubleComplex *x, int64_t incx,
                               trnDoubleComplex *AP);
trnblasStatus_t trnblasSspr2_64(trnblasHandle_t handle, trnblasFillMode_t uplo, int64_t n,
                                const float *alpha, const float *x, int64_t incx, const float *y,
                                int64_t incy, float *AP);
trnblasStatus_t trnblasDspr2_64(trnblasHandle_t handle, trnblasFillMode_t uplo, int64_t n,
                                const double *alpha, const double *x, int64_t incx, const double *y,
                                int64_t incy, double *AP);
trnblasStatus_t trnblasChpr2_64(trnblasHandle_t handle, trnblasFillMode_t uplo, int64_t n,
                                const trnComplex *alpha, const trnComplex *x, int64_t incx,
                                const trnComplex *y, int64_t incy, trnComplex *AP);
trnblasStatus_t trnblasZhpr2_64(trnblasHandle_t handle, trnblasFillMode_t uplo, int64_t n,
                                const trnDoubleComplex *alpha, const trnDoubleComplex *x,
                                int64_t incx, const trnDoubleComplex *y, int64_t incy,
                                trnDoubleComplex *AP);
/* The GEMM family. */
trnblasStatus_t trnblasHgemm_64(trnblasHandle_t handle, trnblasOperation_t transa,
                                trnblasOperation_t transb, int64_t m, int64_t n, int64_t k,
                                const trnsciHalf *alpha, const trnsciHalf *A, int64_t lda,
                                const trnsciHalf *B, int64_t ldb, const trnsciHalf *beta,
                                trnsciHalf *C, int64_t ldc);
trnblasStatus_t trnblasHgemmStridedBatched_64(
    trnblasHandle_t handle, trnblasOperation_t transa, trnblasOperation_t transb, int64_t m,
    int64_t n, int64_t k, const trnsciHalf *alpha, const trnsciHalf *A, int64_t lda,
    long long int strideA, const trnsciHalf *B, int64_t ldb, long long int strideB,
    const trnsciHalf *beta, trnsciHalf *C, int64_t ldc, long long int strideC, int64_t batchCount);
trnblasStatus_t trnblasHgemmBatched_64(trnblasHandle_t handle, trnblasOperation_t transa,
                                       trnblasOperation_t transb, int64_t m, int64_t n, int64_t k,
                                       const trnsciHalf *alpha, const trnsciHalf *const Aarray[],
                                       int64_t lda, const trnsciHalf *const Barray[], int64_t ldb,
                                       const trnsciHalf *beta, trnsciHalf *const Carray[],
                                       int64_t ldc, int64_t batchCount);
trnblasStatus_t trnblasSgemm_64(trnblasHandle_t handle, trnblasOperation_t transa,
                                trnblasOperation_t transb, int64_t m, int64_t n, int64_t k,
                                const float *alpha, const float *A, int64_t lda, const float *B,
                                int64_t ldb, const float *beta, float *C, int64_t ldc);
trnblasStatus_t trnblasDgemm_64(trnblasHandle_t handle, trnblasOperation_t transa,
                                trnblasOperation_t transb, int64_t m, int64_t n, int64_t k,
                                const double *alpha, const double *A, int64_t lda, const double *B,
                                int64_t ldb, const double *beta, double *C, int64_t ldc);
trnblasStatus_t trnblasCgemm_64(trnblasHandle_t handle, trnblasOperation_t transa,
                                trnblasOperation_t transb, int64_t m, int64_t n, int64_t k,
                                const trnComplex *alpha, const trnComplex *A, int64_t lda,
                                const trnComplex *B, int64_t ldb, const trnComplex *beta,
                                trnComplex *C, int64_t ldc);
trnblasStatus_t trnblasZgemm_64(trnblasHandle_t handle, trnblasOperation_t transa,
                                trnblasOperation_t transb, int64_t m, int64_t n, int64_t k,
                                const trnDoubleComplex *alpha, const trnDoubleComplex *A,
                                int64_t lda, const trnDoubleComplex *B, int64_t ldb,
                                const trnDoubleComplex *beta, trnDoubleComplex *C, int64_t ldc);
trnblasStatus_t trnblasSgemmStridedBatched_64(trnblasHandle_t handle, trnblasOperation_t transa,
                                              trnblasOperation_t transb, int64_t m, int64_t n,
                                              int64_t k, const float *alpha, const float *A,
                                              int64_t lda, long long int strideA, const float *B,
                                              int64_t ldb, long long int strideB, const float *beta,
                                              float *C, int64_t ldc, long long int strideC,
                                              int64_t batchCount);
trnblasStatus_t trnblasDgemmStridedBatched_64(trnblasHandle_t handle, trnblasOperation_t transa,
                                              trnblasOperation_t transb, int64_t m, int64_t n,
                                              int64_t k, const double *alpha, const double *A,
                                              int64_t lda, long long int strideA, const double *B,
                                              int64_t ldb, long long int strideB,
                                              const double *beta, double *C, int64_t ldc,
                                              long long int strideC, int64_t batchCount);
trnblasStatus_t trnblasCgemmStridedBatched_64(
    trnblasHandle_t handle, trnblasOperation_t transa, trnblasOperation_t transb, int64_t m,
    int64_t n, int64_t k, const trnComplex *alpha, const trnComplex *A, int64_t lda,
    long long int strideA, const trnComplex *B, int64_t ldb, long long int strideB,
    const trnComplex *beta, trnComplex *C, int64_t ldc, long long int strideC, int64_t batchCount);
trnblasStatus_t trnblasZgemmStridedBatched_64(
    trnblasHandle_t handle, trnblasOperation_t transa, trnblasOperation_t transb, int64_t m,
    int64_t n, int64_t k, const trnDoubleComplex *alpha, const trnDoubleComplex *A, int64_t lda,
    long long int strideA, const trnDoubleComplex *B, int64_t ldb, long long int strideB,
    const trnDoubleComplex *beta, trnDoubleComplex *C, int64_t ldc, long long int strideC,
    int64_t batchCount);
trnblasStatus_t trnblasSgemmBatched_64(trnblasHandle_t handle, trnblasOperation_t transa,
                                       trnblasOperation_t transb, int64_t m, int64_t n, int64_t k,
                                       const float *alpha, const float *const Aarray[], int64_t lda,
                                       const float *const Barray[], int64_t ldb, const float *beta,
                                       float *const Carray[], int64_t ldc, int64_t batchCount);
trnblasStatus_t trnblasDgemmBatched_64(trnblasHandle_t handle, trnblasOperation_t transa,
                                       trnblasOperation_t transb, int64_t m, int64_t n, int64_t k,
                                       const double *alpha, const double *const Aarray[],
                                       int64_t lda, const double *const Barray[], int64_t ldb,
                                       const double *beta, double *const Carray[], int64_t ldc,
                                       int64_t batchCount);
trnblasStatus_t trnblasCgemmBatched_64(trnblasHandle_t handle, trnblasOperation_t transa,
                                       trnblasOperation_t transb, int64_t m, int64_t n, int64_t k,
                                       const trnComplex *alpha, const trnComplex *const Aarray[],
                                       int64_t lda, const trnComplex *const Barray[], int64_t ldb,
                                       const trnComplex *beta, trnComplex *const Carray[],
                                       int64_t ldc, int64_t batchCount);
trnblasStatus_t trnblasZgemmBatched_64(
    trnblasHandle_t handle, trnblasOperation_t transa, trnblasOperation_t transb, int64_t m,
    int64_t n, int64_t k, const trnDoubleComplex *alpha, const trnDoubleComplex *const Aarray[],
    int64_t lda, const trnDoubleComplex *const Barray[], int64_t ldb, const trnDoubleComplex *beta,
    trnDoubleComplex *const Carray[], int64_t ldc, int64_t batchCount);
trnblasStatus_t trnblasGemmEx_64(trnblasHandle_t handle, trnblasOperation_t transa,
                                 trnblasOperation_t transb, int64_t m, int64_t n, int64_t k,
                                 const void *alpha, const void *A, trnsciDataType_t Atype,
                                 int64_t lda, const void *B, trnsciDataType_t Btype, int64_t ldb,
                                 const void *beta, void *C, trnsciDataType_t Ctype, int64_t ldc,
                                 trnblasComputeType_t computeType, trnblasGemmAlgo_t algo);
trnblasStatus_t trnblasGemmBatchedEx_64(trnblasHandle_t handle, trnblasOperation_t transa,
                                        trnblasOperation_t transb, int64_t m, int64_t n, int64_t k,
                                        const void *alpha, const void *const Aarray[],
                                        trnsciDataType_t Atype, int64_t lda,
                                        const void *const Barray[], trnsciDataType_t Btype,
                                        int64_t ldb, const void *beta, void *const Carray[],
                                        trnsciDataType_t Ctype, int64_t ldc, int64_t batchCount,
                                        trnblasComputeType_t computeType, trnblasGemmAlgo_t algo);
trnblasStatus_t trnblasGemmStridedBatchedEx_64(
    trnblasHandle_t handle, trnblasOperation_t transa, trnblasOperation_t transb, int64_t m,
    int64_t n, int64_t k, const void *alpha, const void *A, trnsciDataType_t Atype, int64_t lda,
    long long int strideA, const void *B, trnsciDataType_t Btype, int64_t ldb,
    long long int strideB, const void *beta, void *C, trnsciDataType_t Ctype, int64_t ldc,
    long long int strideC, int64_t batchCount, trnblasComputeType_t computeType,
    trnblasGemmAlgo_t algo);
/* Level 3 beyond GEMM, geam and dgmm. */
trnblasStatus_t trnblasSsymm_64(trnblasHandle_t handle, trnblasSideMode_t side,
                                trnblasFillMode_t uplo, int64_t m, int64_t n, const float *alpha,
                                const float *A, int64_t lda, const float *B, int64_t ldb,
                                const float *beta, float *C, int64_t ldc);
trnblasStatus_t trnblasDsymm_64(trnblasHandle_t handle, trnblasSideMode_t side,
                                trnblasFillMode_t uplo, int64_t m, int64_t n, const double *alpha,
                                const double *A, int64_t lda, const double *B, int64_t ldb,
                                const double *beta, double *C, int64_t ldc);
trnblasStatus_t trnblasCsymm_64(trnblasHandle_t handle, trnblasSideMode_t side,
                                trnblasFillMode_t uplo, int64_t m, int64_t n,
                                const trnComplex *alpha, const trnComplex *A, int64_t lda,
                                const trnComplex *B, int64_t ldb, const trnComplex *beta,
                                trnComplex *C, int64_t ldc);
trnblasStatus_t trnblasZsymm_64(trnblasHandle_t handle, trnblasSideMode_t side,
                                trnblasFillMode_t uplo, int64_t m, int64_t n,
                                const trnDoubleComplex *alpha, const trnDoubleComplex *A,
                                int64_t lda, const trnDoubleComplex *B, int64_t ldb,
                                const trnDoubleComplex *beta, trnDoubleComplex *C, int64_t ldc);
trnblasStatus_t trnblasChemm_64(trnblasHandle_t handle, trnblasSideMode_t side,
                                trnblasFillMode_t uplo, int64_t m, int64_t n,
                                const trnComplex *alpha, const trnComplex *A, int64_t lda,
                                const trnComplex *B, int64_t ldb, const trnComplex *beta,
                                trnComplex *C, int64_t ldc);
trnblasStatus_t trnblasZhemm_64(trnblasHandle_t handle, trnblasSideMode_t side,
                                trnblasFillMode_t uplo, int64_t m, int64_t n,
                                const trnDoubleComplex *alpha, const trnDoubleComplex *A,
                                int64_t lda, const trnDoubleComplex *B, int64_t ldb,
                                const trnDoubleComplex *beta, trnDoubleComplex *C, int64_t ldc);
trnblasStatus_t trnblasSsyrk_64(trnblasHandle_t handle, trnblasFillMode_t uplo,
                                trnblasOperation_t trans, int64_t n, int64_t k, const float *alpha,
                                const float *A, int64_t lda, const float *beta, float *C,
                                int64_t ldc);
trnblasStatus_t trnblasDsyrk_64(trnblasHandle_t handle, trnblasFillMode_t uplo,
                                trnblasOperation_t trans, int64_t n, int64_t k, const double *alpha,
                                const double *A, int64_t lda, const double *beta, double *C,
                                int64_t ldc);
trnblasStatus_t trnblasCsyrk_64(trnblasHandle_t handle, trnblasFillMode_t uplo,
                                trnblasOperation_t trans, int64_t n, int64_t k,
                                const trnComplex *alpha, const trnComplex *A, int64_t lda,
                                const trnComplex *beta, trnComplex *C, int64_t ldc);
trnblasStatus_t trnblasZsyrk_64(trnblasHandle_t handle, trnblasFillMode_t uplo,
                                trnblasOperation_t trans, int64_t n, int64_t k,
                                const trnDoubleComplex *alpha, const trnDoubleComplex *A,
                                int64_t lda, const trnDoubleComplex *beta, trnDoubleComplex *C,
                                int64_t ldc);
trnblasStatus_t trnblasCherk_64(trnblasHandle_t handle, trnblasFillMode_t uplo,
                                trnblasOperation_t trans, int64_t n, int64_t k, const float *alpha,
                                const trnComplex *A, int64_t lda, const float *beta, trnComplex *C,
                                int64_t ldc);
trnblasStatus_t trnblasZherk_64(trnblasHandle_t handle, trnblasFillMode_t uplo,
                                trnblasOperation_t trans, int64_t n, int64_t k, const double *alpha,
                                const trnDoubleComplex *A, int64_t lda, const double *beta,
                                trnDoubleComplex *C, int64_t ldc);
trnblasStatus_t trnblasSsyr2k_64(trnblasHandle_t handle, trnblasFillMode_t uplo,
                                 trnblasOperation_t trans, int64_t n, int64_t k, const float *alpha,
                                 const float *A, int64_t lda, const float *B, int64_t ldb,
                                 const float *beta, float *C, int64_t ldc);
trnblasStatus_t trnblasDsyr2k_64(trnblasHandle_t handle, trnblasFillMode_t uplo,
                                 trnblasOperation_t trans, int64_t n, int64_t k,
                                 const double *alpha, const double *A, int64_t lda, const double *B,
                                 int64_t ldb, const double *beta, double *C, int64_t ldc);
trnblasStatus_t trnblasCsyr2k_64(trnblasHandle_t handle, trnblasFillMode_t uplo,
                                 trnblasOperation_t trans, int64_t n, int64_t k,
                                 const trnComplex *alpha, const trnComplex *A, int64_t lda,
                                 const trnComplex *B, int64_t ldb, const trnComplex *beta,
                                 trnComplex *C, int64_t ldc);
trnblasStatus_t trnblasZsyr2k_64(trnblasHandle_t handle, trnblasFillMode_t uplo,
                                 trnblasOperation_t trans, int64_t n, int64_t k,
                                 const trnDoubleComplex *alpha, const trnDoubleComplex *A,
                                 int64_t lda, const trnDoubleComplex *B, int64_t ldb,
                                 const trnDoubleComplex *beta, trnDoubleComplex *C, int64_t ldc);
trnblasStatus_t trnblasCher2k_64(trnblasHandle_t handle, trnblasFillMode_t uplo,
                                 trnblasOperation_t trans, int64_t n, int64_t k,
                                 const trnComplex *alpha, const trnComplex *A, int64_t lda,
                                 const trnComplex *B, int64_t ldb, const float *beta, trnComplex *C,
                                 int64_t ldc);
trnblasStatus_t trnblasZher2k_64(trnblasHandle_t handle, trnblasFillMode_t uplo,
                                 trnblasOperation_t trans, int64_t n, int64_t k,
                                 const trnDoubleComplex *alpha, const trnDoubleComplex *A,
                                 int64_t lda, const trnDoubleComplex *B, int64_t ldb,
                                 const double *beta, trnDoubleComplex *C, int64_t ldc);
trnblasStatus_t trnblasSsyrkx_64(trnblasHandle_t handle, trnblasFillMode_t uplo,
                                 trnblasOperation_t trans, int64_t n, int64_t k, const float *alpha,
                                 const float *A, int64_t lda, const float *B, int64_t ldb,
                                 const float *beta, float *C, int64_t ldc);
trnblasStatus_t trnblasDsyrkx_64(trnblasHandle_t handle, trnblasFillMode_t uplo,
                                 trnblasOperation_t trans, int64_t n, int64_t k,
                                 const double *alpha, const double *A, int64_t lda, const double *B,
                                 int64_t ldb, const double *beta, double *C, int64_t ldc);
trnblasStatus_t trnblasCsyrkx_64(trnblasHandle_t handle, trnblasFillMode_t uplo,
                                 trnblasOperation_t trans, int64_t n, int64_t k,
                                 const trnComplex *alpha, const trnComplex *A, int64_t lda,
                                 const trnComplex *B, int64_t ldb, const trnComplex *beta,
                                 trnComplex *C, int64_t ldc);
trnblasStatus_t trnblasZsyrkx_64(trnblasHandle_t handle, trnblasFillMode_t uplo,
                                 trnblasOperation_t trans, int64_t n, int64_t k,
                                 const trnDoubleComplex *alpha, const trnDoubleComplex *A,
                                 int64_t lda, const trnDoubleComplex *B, int64_t ldb,
                                 const trnDoubleComplex *beta, trnDoubleComplex *C, int64_t ldc);
trnblasStatus_t trnblasCherkx_64(trnblasHandle_t handle, trnblasFillMode_t uplo,
                                 trnblasOperation_t trans, int64_t n, int64_t k,
                                 const trnComplex *alpha, const trnComplex *A, int64_t lda,
                                 const trnComplex *B, int64_t ldb, const float *beta, trnComplex *C,
                                 int64_t ldc);
trnblasStatus_t trnblasZherkx_64(trnblasHandle_t handle, trnblasFillMode_t uplo,
                                 trnblasOperation_t trans, int64_t n, int64_t k,
                                 const trnDoubleComplex *alpha, const trnDoubleComplex *A,
                                 int64_t lda, const trnDoubleComplex *B, int64_t ldb,
                                 const double *beta, trnDoubleComplex *C, int64_t ldc);
trnblasStatus_t trnblasStrsm_64(trnblasHandle_t handle, trnblasSideMode_t side,
                                trnblasFillMode_t uplo, trnblasOperation_t trans,
                                trnblasDiagType_t diag, int64_t m, int64_t n, const float *alpha,
                                const float *A, int64_t lda, float *B, int64_t ldb);
trnblasStatus_t trnblasDtrsm_64(trnblasHandle_t handle, trnblasSideMode_t side,
                                trnblasFillMode_t uplo, trnblasOperation_t trans,
                                trnblasDiagType_t diag, int64_t m, int64_t n, const double *alpha,
                                const double *A, int64_t lda, double *B, int64_t ldb);
trnblasStatus_t trnblasCtrsm_64(trnblasHandle_t handle, trnblasSideMode_t side,
                                trnblasFillMode_t uplo, trnblasOperation_t trans,
                                trnblasDiagType_t diag, int64_t m, int64_t n,
                                const trnComplex *alpha, const trnComplex *A, int64_t lda,
                                trnComplex *B, int64_t ldb);
trnblasStatus_t trnblasZtrsm_64(trnblasHandle_t handle, trnblasSideMode_t side,
                                trnblasFillMode_t uplo, trnblasOperation_t trans,
                                trnblasDiagType_t diag, int64_t m, int64_t n,
                                const trnDoubleComplex *alpha, const trnDoubleComplex *A,
                                int64_t lda, trnDoubleComplex *B, int64_t ldb);
trnblasStatus_t trnblasStrmm_64(trnblasHandle_t handle, trnblasSideMode_t side,
                                trnblasFillMode_t uplo, trnblasOperation_t trans,
                                trnblasDiagType_t diag, int64_t m, int64_t n, const float *alpha,
                                const float *A, int64_t lda, const float *B, int64_t ldb, float *C,
                                int64_t ldc);
trnblasStatus_t trnblasDtrmm_64(trnblasHandle_t handle, trnblasSideMode_t side,
                                trnblasFillMode_t uplo, trnblasOperation_t trans,
                                trnblasDiagType_t diag, int64_t m, int64_t n, const double *alpha,
                                const double *A, int64_t lda, const double *B, int64_t ldb,
                                double *C, int64_t ldc);
trnblasStatus_t trnblasCtrmm_64(trnblasHandle_t handle, trnblasSideMode_t side,
                                trnblasFillMode_t uplo, trnblasOperation_t trans,
                                trnblasDiagType_t diag, int64_t m, int64_t n,
                                const trnComplex *alpha, const trnComplex *A, int64_t lda,
                                const trnComplex *B, int64_t ldb, trnComplex *C, int64_t ldc);
trnblasStatus_t trnblasZtrmm_64(trnblasHandle_t handle, trnblasSideMode_t side,
                                trnblasFillMode_t uplo, trnblasOperation_t trans,
                                trnblasDiagType_t diag, int64_t m, int64_t n,
                                const trnDoubleComplex *alpha, const trnDoubleComplex *A,
                                int64_t lda, const trnDoubleComplex *B, int64_t ldb,
                                trnDoubleComplex *C, int64_t ldc);
trnblasStatus_t trnblasSgeam_64(trnblasHandle_t handle, trnblasOperation_t transa,
                                trnblasOperation_t transb, int64_t m, int64_t n, const float *alpha,
                                const float *A, int64_t lda, const float *beta, const float *B,
                                int64_t ldb, float *C, int64_t ldc);
trnblasStatus_t trnblasDgeam_64(trnblasHandle_t handle, trnblasOperation_t transa,
                                trnblasOperation_t transb, int64_t m, int64_t n,
                                const double *alpha, const double *A, int64_t lda,
                                const double *beta, const double *B, int64_t ldb, double *C,
                                int64_t ldc);
trnblasStatus_t trnblasCgeam_64(trnblasHandle_t handle, trnblasOperation_t transa,
                                trnblasOperation_t transb, int64_t m, int64_t n,
                                const trnComplex *alpha, const trnComplex *A, int64_t lda,
                                const trnComplex *beta, const trnComplex *B, int64_t ldb,
                                trnComplex *C, int64_t ldc);
trnblasStatus_t trnblasZgeam_64(trnblasHandle_t handle, trnblasOperation_t transa,
                                trnblasOperation_t transb, int64_t m, int64_t n,
                                const trnDoubleComplex *alpha, const trnDoubleComplex *A,
                                int64_t lda, const trnDoubleComplex *beta,
                                const trnDoubleComplex *B, int64_t ldb, trnDoubleComplex *C,
                                int64_t ldc);
trnblasStatus_t trnblasSdgmm_64(trnblasHandle_t handle, trnblasSideMode_t mode, int64_t m,
                                int64_t n, const float *A, int64_t lda, const float *x,
                                int64_t incx, float *C, int64_t ldc);
trnblasStatus_t trnblasDdgmm_64(trnblasHandle_t handle, trnblasSideMode_t mode, int64_t m,
                                int64_t n, const double *A, int64_t lda, const double *x,
                                int64_t incx, double *C, int64_t ldc);
trnblasStatus_t trnblasCdgmm_64(trnblasHandle_t handle, trnblasSideMode_t mode, int64_t m,
                                int64_t n, const trnComplex *A, int64_t lda, const trnComplex *x,
                                int64_t incx, trnComplex *C, int64_t ldc);
trnblasStatus_t trnblasZdgmm_64(trnblasHandle_t handle, trnblasSideMode_t mode, int64_t m,
                                int64_t n, const trnDoubleComplex *A, int64_t lda,
                                const trnDoubleComplex *x, int64_t incx, trnDoubleComplex *C,
                                int64_t ldc);

#ifdef __cplusplus
}

/* cuBLAS's C++ compatibility overloads: code written before cuBLAS 11 passes
 * a trnsciDataType_t as the GemmEx compute type. R_16F is COMPUTE_16F,
 * R_32I COMPUTE_32I, R_32F and C_32F COMPUTE_32F, R_64F and C_64F
 * COMPUTE_64F; any other value is passed on, and refused there. */
extern "C++" {
static inline trnblasComputeType_t trnblasComputeTypeOfDataType(trnsciDataType_t t) {
    switch (t) {
    case TRNSCI_R_16F: return TRNBLAS_COMPUTE_16F;
    case TRNSCI_R_32I: return TRNBLAS_COMPUTE_32I;
    case TRNSCI_R_32F:
    case TRNSCI_C_32F: return TRNBLAS_COMPUTE_32F;
    case TRNSCI_R_64F:
    case TRNSCI_C_64F: return TRNBLAS_COMPUTE_64F;
    default: return (trnblasComputeType_t)t;
    }
}
static inline trnblasStatus_t trnblasGemmEx(trnblasHandle_t handle, trnblasOperation_t transa,
                                            trnblasOperation_t transb, int m, int n, int k,
                                            const void *alpha, const void *A,
                                            trnsciDataType_t Atype, int lda, const void *B,
                                            trnsciDataType_t Btype, int ldb, const void *beta,
                                            void *C, trnsciDataType_t Ctype, int ldc,
                                            trnsciDataType_t computeType, trnblasGemmAlgo_t algo) {
    return trnblasGemmEx(handle, transa, transb, m, n, k, alpha, A, Atype, lda, B, Btype, ldb, beta,
                         C, Ctype, ldc, trnblasComputeTypeOfDataType(computeType), algo);
}
static inline trnblasStatus_t
trnblasGemmBatchedEx(trnblasHandle_t handle, trnblasOperation_t transa, trnblasOperation_t transb,
                     int m, int n, int k, const void *alpha, const void *const Aarray[],
                     trnsciDataType_t Atype, int lda, const void *const Barray[],
                     trnsciDataType_t Btype, int ldb, const void *beta, void *const Carray[],
                     trnsciDataType_t Ctype, int ldc, int batchCount, trnsciDataType_t computeType,
                     trnblasGemmAlgo_t algo) {
    return trnblasGemmBatchedEx(handle, transa, transb, m, n, k, alpha, Aarray, Atype, lda, Barray,
                                Btype, ldb, beta, Carray, Ctype, ldc, batchCount,
                                trnblasComputeTypeOfDataType(computeType), algo);
}
static inline trnblasStatus_t trnblasGemmStridedBatchedEx(
    trnblasHandle_t handle, trnblasOperation_t transa, trnblasOperation_t transb, int m, int n,
    int k, const void *alpha, const void *A, trnsciDataType_t Atype, int lda, long long int strideA,
    const void *B, trnsciDataType_t Btype, int ldb, long long int strideB, const void *beta,
    void *C, trnsciDataType_t Ctype, int ldc, long long int strideC, int batchCount,
    trnsciDataType_t computeType, trnblasGemmAlgo_t algo) {
    return trnblasGemmStridedBatchedEx(
        handle, transa, transb, m, n, k, alpha, A, Atype, lda, strideA, B, Btype, ldb, strideB,
        beta, C, Ctype, ldc, strideC, batchCount, trnblasComputeTypeOfDataType(computeType), algo);
}
}
#endif

#endif
