/*
 * trntensor.h — tensor contractions, element-wise operations, permutations
 * and reductions (the analog of cuTENSOR 2.x), plus einsum conveniences.
 *
 * Names, parameter lists, enum values and status codes are cuTENSOR 2.x's
 * with the prefix changed (cutensorContract -> trntensorContract,
 * CUTENSOR_OP_ADD -> TRNTENSOR_OP_ADD); data types are trnsciDataType_t
 * (cudaDataType_t's values, which cuTENSOR 2.x's cutensorDataType_t also
 * uses). docs/rosetta.md lists every deviation.
 *
 * The model is cuTENSOR's: a tensor descriptor (trntensorCreateTensorDescriptor)
 * gives each mode's extent and stride (in elements, the first mode varying
 * fastest when strides are NULL: column-major, as cuTENSOR) and the data
 * type. An operation descriptor (trntensorCreateContraction, ...) names the
 * modes of each operand with integers (or characters: 'i', 'j', ...); modes
 * that share a label must have the same extent. A plan (trntensorCreatePlan)
 * makes the operation executable; the execute calls (trntensorContract,
 * trntensorPermute, ...) take device pointers (trnsciMalloc) and a stream.
 *
 * Descriptors, plan preferences and element-wise plans are host objects and
 * cost no round trip. A contraction plan is prepared by the daemon in its
 * plan cache, shared by every process that asks for the same contraction
 * (same modes, extents, strides, types and compute descriptor): the second
 * process's trntensorCreatePlan is a cache hit. Execute calls are
 * asynchronous: they return once the daemon has checked the arguments (that
 * every operand lies inside its allocation) and queued the op;
 * TRNTENSOR_STATUS_INVALID_VALUE or _NOT_SUPPORTED come with a message in
 * trnsciGetLastErrorMessage naming the argument and the rule.
 *
 * Types: TRNSCI_R_32F, TRNSCI_R_64F, TRNSCI_C_32F and TRNSCI_C_64F; all
 * operands of an operation have one data type, except a permutation, which
 * may convert between the two real types (typeA != typeB, see
 * trntensorCreatePermutation); other mixtures are
 * TRNTENSOR_STATUS_NOT_SUPPORTED. On complex data the unary operators are
 * TRNTENSOR_OP_IDENTITY and TRNTENSOR_OP_CONJ (conjugation), the binary
 * ones (opAB, opABC, opReduce) TRNTENSOR_OP_ADD and TRNTENSOR_OP_MUL, and
 * scalars are complex (trnFloatComplex / trnDoubleComplex); a contraction's
 * opC must be IDENTITY there. TRNSCI_R_16F and TRNSCI_R_16BF (16-bit
 * storage, protocol 1.14) compute in TRNTENSOR_COMPUTE_DESC_32F (also 16F /
 * 16BF outside contractions, protocol 1.15), with float scalars: widened
 * exactly, FP32 arithmetic, one rounding to the type.
 * Compute descriptors:
 * TRNTENSOR_COMPUTE_DESC_32F (R_32F, C_32F data), _64F (R_64F, C_64F), either for
 * a converting permutation, and trnblas's precision modes
 * (TRNTENSOR_COMPUTE_DESC_32F_FAST_16BF, _32F_BF16X3 on R_32F data,
 * _64F_EMULATED on R_64F data: real data only; docs/numerics.md). Scalars (alpha, beta,
 * gamma) are host pointers of the operation's scalar type
 * (TRNTENSOR_OPERATION_DESCRIPTOR_SCALAR_TYPE: the data type; for a
 * converting permutation the compute descriptor's, float for 32F and double
 * for 64F), read during the call.
 *
 * A handle may be used by one thread at a time; descriptors and plans may be
 * shared between threads once made.
 */
#ifndef TRNSCI_TRNTENSOR_H
#define TRNSCI_TRNTENSOR_H

#include <stddef.h>
#include <stdint.h>

#include <trnsci/library_types.h>
#include <trnsci/trnsci.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The most modes a tensor descriptor may have (cuTENSOR allows more; a
 * deviation recorded in docs/rosetta.md). */
#define TRNTENSOR_MAX_MODES 16

/* ---- types (values are cuTENSOR 2.x's) ------------------------------------ */

/* cutensorDataType_t: cuTENSOR 2.x's data types have cudaDataType_t's values,
 * so trntensorDataType_t is trnsciDataType_t and TRNTENSOR_R_32F ... are
 * its values (tools/cuda2trn renames cutensorDataType_t to
 * trnsciDataType_t; both spellings work). */
typedef trnsciDataType_t trntensorDataType_t;
#define TRNTENSOR_R_16F TRNSCI_R_16F
#define TRNTENSOR_C_16F TRNSCI_C_16F
#define TRNTENSOR_R_16BF TRNSCI_R_16BF
#define TRNTENSOR_C_16BF TRNSCI_C_16BF
#define TRNTENSOR_R_32F TRNSCI_R_32F
#define TRNTENSOR_C_32F TRNSCI_C_32F
#define TRNTENSOR_R_64F TRNSCI_R_64F
#define TRNTENSOR_C_64F TRNSCI_C_64F
#define TRNTENSOR_R_8I TRNSCI_R_8I
#define TRNTENSOR_C_8I TRNSCI_C_8I
#define TRNTENSOR_R_8U TRNSCI_R_8U
#define TRNTENSOR_C_8U TRNSCI_C_8U
#define TRNTENSOR_R_32I TRNSCI_R_32I
#define TRNTENSOR_C_32I TRNSCI_C_32I
#define TRNTENSOR_R_32U TRNSCI_R_32U
#define TRNTENSOR_C_32U TRNSCI_C_32U

typedef enum trntensorStatus_t {
    TRNTENSOR_STATUS_SUCCESS = 0,
    TRNTENSOR_STATUS_NOT_INITIALIZED = 1,
    TRNTENSOR_STATUS_ALLOC_FAILED = 3,
    TRNTENSOR_STATUS_INVALID_VALUE = 7,
    TRNTENSOR_STATUS_ARCH_MISMATCH = 8,
    TRNTENSOR_STATUS_MAPPING_ERROR = 11,
    TRNTENSOR_STATUS_EXECUTION_FAILED = 13,
    TRNTENSOR_STATUS_INTERNAL_ERROR = 14,
    TRNTENSOR_STATUS_NOT_SUPPORTED = 15,
    TRNTENSOR_STATUS_LICENSE_ERROR = 16,          /* never returned */
    TRNTENSOR_STATUS_TRNBLAS_ERROR = 17,          /* CUTENSOR_STATUS_CUBLAS_ERROR */
    TRNTENSOR_STATUS_TRNSCI_ERROR = 18,           /* CUTENSOR_STATUS_CUDA_ERROR */
    TRNTENSOR_STATUS_INSUFFICIENT_WORKSPACE = 19, /* never returned: the daemon owns workspace */
    TRNTENSOR_STATUS_INSUFFICIENT_DRIVER = 20,    /* the daemon's protocol is too old */
    TRNTENSOR_STATUS_IO_ERROR = 21,
} trntensorStatus_t;

/* Unary operators applied to operands, and binary operators combining them
 * (cutensorOperator_t). Element-wise operations on real data take every
 * unary operator listed; contractions take TRNTENSOR_OP_IDENTITY and
 * TRNTENSOR_OP_CONJ (conjugation on complex data, the identity on real). */
typedef enum trntensorOperator_t {
    /* unary */
    TRNTENSOR_OP_IDENTITY = 1,
    TRNTENSOR_OP_SQRT = 2,
    TRNTENSOR_OP_RELU = 8,
    TRNTENSOR_OP_CONJ = 9,
    TRNTENSOR_OP_RCP = 10,
    TRNTENSOR_OP_SIGMOID = 11,
    TRNTENSOR_OP_TANH = 12,
    TRNTENSOR_OP_EXP = 22,
    TRNTENSOR_OP_LOG = 23,
    TRNTENSOR_OP_ABS = 24,
    TRNTENSOR_OP_NEG = 25,
    TRNTENSOR_OP_SIN = 26,
    TRNTENSOR_OP_COS = 27,
    TRNTENSOR_OP_TAN = 28,
    TRNTENSOR_OP_SINH = 29,
    TRNTENSOR_OP_COSH = 30,
    TRNTENSOR_OP_ASIN = 31,
    TRNTENSOR_OP_ACOS = 32,
    TRNTENSOR_OP_ATAN = 33,
    TRNTENSOR_OP_ASINH = 34,
    TRNTENSOR_OP_ACOSH = 35,
    TRNTENSOR_OP_ATANH = 36,
    TRNTENSOR_OP_CEIL = 37,
    TRNTENSOR_OP_FLOOR = 38,
    TRNTENSOR_OP_MISH = 39,
    TRNTENSOR_OP_SWISH = 40,
    TRNTENSOR_OP_SOFT_PLUS = 41,
    TRNTENSOR_OP_SOFT_SIGN = 42,
    /* binary */
    TRNTENSOR_OP_ADD = 3,
    TRNTENSOR_OP_MUL = 5,
    TRNTENSOR_OP_MAX = 6,
    TRNTENSOR_OP_MIN = 7,
    TRNTENSOR_OP_UNKNOWN = 126,
} trntensorOperator_t;

/* cutensorAlgo_t: every value is accepted; the daemon chooses the
 * transpose-GEMM-transpose or strided-batched-GEMM mapping itself. */
typedef enum trntensorAlgo_t {
    TRNTENSOR_ALGO_DEFAULT_PATIENT = -6,
    TRNTENSOR_ALGO_GETT = -4,
    TRNTENSOR_ALGO_TGETT = -3,
    TRNTENSOR_ALGO_TTGT = -2,
    TRNTENSOR_ALGO_DEFAULT = -1,
} trntensorAlgo_t;

typedef enum trntensorWorksizePreference_t {
    TRNTENSOR_WORKSPACE_MIN = 1,
    TRNTENSOR_WORKSPACE_DEFAULT = 2,
    TRNTENSOR_WORKSPACE_MAX = 3,
} trntensorWorksizePreference_t;

typedef enum trntensorJitMode_t {
    TRNTENSOR_JIT_MODE_NONE = 0,
    TRNTENSOR_JIT_MODE_DEFAULT = 1, /* accepted; nothing is compiled */
} trntensorJitMode_t;

typedef enum trntensorCacheMode_t {
    TRNTENSOR_CACHE_MODE_NONE = 0,
    TRNTENSOR_CACHE_MODE_PEDANTIC = 1,
} trntensorCacheMode_t;

typedef enum trntensorAutotuneMode_t {
    TRNTENSOR_AUTOTUNE_MODE_NONE = 0,
    TRNTENSOR_AUTOTUNE_MODE_INCREMENTAL = 1,
} trntensorAutotuneMode_t;

typedef enum trntensorOperationDescriptorAttribute_t {
    TRNTENSOR_OPERATION_DESCRIPTOR_TAG = 0,         /* int32_t */
    TRNTENSOR_OPERATION_DESCRIPTOR_SCALAR_TYPE = 1, /* trnsciDataType_t (get only) */
    TRNTENSOR_OPERATION_DESCRIPTOR_FLOPS = 2,       /* float (get only) */
    TRNTENSOR_OPERATION_DESCRIPTOR_MOVED_BYTES = 3, /* float (get only) */
    /* Permutations only (trntensorOperationDescriptorSetAttribute). */
    TRNTENSOR_OPERATION_DESCRIPTOR_PADDING_LEFT = 4,  /* uint32_t[numModes of B] */
    TRNTENSOR_OPERATION_DESCRIPTOR_PADDING_RIGHT = 5, /* uint32_t[numModes of B] */
    TRNTENSOR_OPERATION_DESCRIPTOR_PADDING_VALUE = 6, /* one value of B's data type */
} trntensorOperationDescriptorAttribute_t;

typedef enum trntensorPlanPreferenceAttribute_t {
    TRNTENSOR_PLAN_PREFERENCE_AUTOTUNE_MODE = 0,
    TRNTENSOR_PLAN_PREFERENCE_CACHE_MODE = 1,
    TRNTENSOR_PLAN_PREFERENCE_INCREMENTAL_COUNT = 2,
    TRNTENSOR_PLAN_PREFERENCE_ALGO = 3,
    TRNTENSOR_PLAN_PREFERENCE_KERNEL_RANK = 4,
    TRNTENSOR_PLAN_PREFERENCE_JIT = 5,
} trntensorPlanPreferenceAttribute_t;

typedef enum trntensorPlanAttribute_t {
    TRNTENSOR_PLAN_REQUIRED_WORKSPACE = 0, /* uint64_t: always 0 */
} trntensorPlanAttribute_t;

typedef struct trntensorHandle *trntensorHandle_t;
typedef struct trntensorTensorDescriptor *trntensorTensorDescriptor_t;
typedef struct trntensorOperationDescriptor *trntensorOperationDescriptor_t;
typedef struct trntensorPlanPreference *trntensorPlanPreference_t;
typedef struct trntensorPlan *trntensorPlan_t;
typedef const struct trntensorComputeDescriptor *trntensorComputeDescriptor_t;

/* Compute descriptors (cutensorComputeDescriptor_t constants). 32F and 64F
 * compute in the data type; the trnblas precision modes (trnsci extensions,
 * docs/numerics.md) do what trnblasGemmEx does with the
 * TRNBLAS_COMPUTE_* type of the same name. 16BF is 32F_FAST_16BF and TF32 is
 * 32F_FAST_TF32 (cuTENSOR's 16BF and TF32 round the inputs and accumulate in
 * FP32 as these do); 16F is trnblas's 32F_FAST_16F (inputs rounded to
 * binary16, FP32 accumulation) in contractions of R_32F data. On R_16F
 * (16F) and R_16BF (16BF) data, element-wise ops, permutations and
 * reductions take them as cuTENSOR does (protocol 1.15): the operands are
 * exact in the compute type and trnsci computes as under 32F (FP32 or
 * better, one rounding to the 16-bit type), with float scalars.
 * 3XTF32 is declared for ported code and is TRNTENSOR_STATUS_NOT_SUPPORTED. */
extern const trntensorComputeDescriptor_t TRNTENSOR_COMPUTE_DESC_16F;
extern const trntensorComputeDescriptor_t TRNTENSOR_COMPUTE_DESC_16BF;
extern const trntensorComputeDescriptor_t TRNTENSOR_COMPUTE_DESC_TF32;
extern const trntensorComputeDescriptor_t TRNTENSOR_COMPUTE_DESC_3XTF32;
extern const trntensorComputeDescriptor_t TRNTENSOR_COMPUTE_DESC_32F;
extern const trntensorComputeDescriptor_t TRNTENSOR_COMPUTE_DESC_64F;
/* trnsci extensions: trnblas's precision modes. */
extern const trntensorComputeDescriptor_t TRNTENSOR_COMPUTE_DESC_32F_FAST_16BF;
extern const trntensorComputeDescriptor_t TRNTENSOR_COMPUTE_DESC_32F_FAST_TF32;
extern const trntensorComputeDescriptor_t TRNTENSOR_COMPUTE_DESC_32F_BF16X3;
extern const trntensorComputeDescriptor_t TRNTENSOR_COMPUTE_DESC_64F_EMULATED;

/* ---- handle ---------------------------------------------------------------- */

/* Makes a handle (initialises the runtime lazily, as every call does).
 * TRNTENSOR_STATUS_NOT_INITIALIZED when no daemon can be reached. */
trntensorStatus_t trntensorCreate(trntensorHandle_t *handle);
/* Frees the handle. Plans and descriptors made with it stay valid. */
trntensorStatus_t trntensorDestroy(trntensorHandle_t handle);
/* The stream used by calls that take no stream argument (trntensorEinsum
 * and the fused chemistry kernels). A trnsci extension: cuTENSOR 2.x passes a
 * stream to every execute call, and so does trntensor. NULL: the default
 * stream. */
trntensorStatus_t trntensorSetStream(trntensorHandle_t handle, trnsciStream_t stream);
trntensorStatus_t trntensorGetStream(trntensorHandle_t handle, trnsciStream_t *stream);
/* The status's text ("invalid value", ...); never NULL. */
const char *trntensorGetErrorString(trntensorStatus_t error);
/* major * 10000 + minor * 100 + patch, cutensorGetVersion's encoding. */
size_t trntensorGetVersion(void);

/* ---- tensor descriptors ---------------------------------------------------- */

/* A tensor of numModes modes (0 .. TRNTENSOR_MAX_MODES; 0 is a scalar).
 * extent[i] >= 1 for every mode; stride[i] (elements) >= 1, or NULL for the
 * packed layout (stride[0] = 1, stride[i] = stride[i-1] * extent[i-1]).
 * Strides may leave gaps (sub-tensors) but two elements must not share an
 * address in an output. alignmentRequirement (bytes) is the alignment of the
 * pointers the tensor will be used with: 0 or a power of two; device
 * pointers must be aligned to the element size whatever it says. */
trntensorStatus_t trntensorCreateTensorDescriptor(const trntensorHandle_t handle,
                                                  trntensorTensorDescriptor_t *desc,
                                                  const uint32_t numModes, const int64_t extent[],
                                                  const int64_t stride[], trnsciDataType_t dataType,
                                                  uint32_t alignmentRequirement);
trntensorStatus_t trntensorDestroyTensorDescriptor(trntensorTensorDescriptor_t desc);

/* ---- operation descriptors --------------------------------------------------- */

/* D = alpha * opA(A) * opB(B) + beta * opC(C) summed over the modes that A
 * and B share and D lacks (the contracted modes). Every mode of D appears in
 * A or B (or both: a batch mode); a mode in exactly one of A and B that D
 * lacks is summed over in that operand (a trace). modeC must equal modeD and
 * descC must describe the same layout as descD (cuTENSOR's rule); C and D
 * may be the same pointer, but D must not overlap A or B. Modes are int32_t labels; a label appears
 * at most once per operand. */
trntensorStatus_t
trntensorCreateContraction(const trntensorHandle_t handle, trntensorOperationDescriptor_t *desc,
                           const trntensorTensorDescriptor_t descA, const int32_t modeA[],
                           trntensorOperator_t opA, const trntensorTensorDescriptor_t descB,
                           const int32_t modeB[], trntensorOperator_t opB,
                           const trntensorTensorDescriptor_t descC, const int32_t modeC[],
                           trntensorOperator_t opC, const trntensorTensorDescriptor_t descD,
                           const int32_t modeD[], const trntensorComputeDescriptor_t descCompute);

/* E = alpha * opA(A) * opB(B) * opC(C) + beta * opD(D), summed over the
 * modes of A, B and C that E lacks (cuTENSOR's trinary contraction).
 * Every mode of E appears in A, B or C; every mode of A, B or C appears in
 * at least one other operand or in E (or has extent 1); shared labels have
 * equal extents. descD/modeD must equal descE/modeE (cuTENSOR's rule); D
 * and E may be the same pointer, and A, B, C must not overlap E. opA, opB,
 * opC: IDENTITY or CONJ (conjugation on complex data); opD: IDENTITY (CONJ
 * on real data only). Types and compute descriptors as
 * trntensorCreateContraction's (R_16F / R_16BF with 32F). Mode rules are
 * checked here: TRNTENSOR_STATUS_INVALID_VALUE or _NOT_SUPPORTED. The
 * daemon contracts the cheapest pair of A, B, C first (by flop count) and
 * the result with the third, in one op (docs/numerics.md). Needs a daemon
 * of protocol 1.15. */
trntensorStatus_t trntensorCreateContractionTrinary(
    const trntensorHandle_t handle, trntensorOperationDescriptor_t *desc,
    const trntensorTensorDescriptor_t descA, const int32_t modeA[], trntensorOperator_t opA,
    const trntensorTensorDescriptor_t descB, const int32_t modeB[], trntensorOperator_t opB,
    const trntensorTensorDescriptor_t descC, const int32_t modeC[], trntensorOperator_t opC,
    const trntensorTensorDescriptor_t descD, const int32_t modeD[], trntensorOperator_t opD,
    const trntensorTensorDescriptor_t descE, const int32_t modeE[],
    const trntensorComputeDescriptor_t descCompute);

/* D = opABC(opAB(alpha * opA(A), beta * opB(B)), gamma * opC(C)), element
 * by element over D's modes; A and B may lack modes of D (broadcast), and
 * every mode of A, B and C appears in D. opAB and opABC are ADD, MUL, MAX or
 * MIN. */
trntensorStatus_t trntensorCreateElementwiseTrinary(
    const trntensorHandle_t handle, trntensorOperationDescriptor_t *desc,
    const trntensorTensorDescriptor_t descA, const int32_t modeA[], trntensorOperator_t opA,
    const trntensorTensorDescriptor_t descB, const int32_t modeB[], trntensorOperator_t opB,
    const trntensorTensorDescriptor_t descC, const int32_t modeC[], trntensorOperator_t opC,
    const trntensorTensorDescriptor_t descD, const int32_t modeD[], trntensorOperator_t opAB,
    trntensorOperator_t opABC, const trntensorComputeDescriptor_t descCompute);

/* D = opAC(alpha * opA(A), gamma * opC(C)). */
trntensorStatus_t trntensorCreateElementwiseBinary(
    const trntensorHandle_t handle, trntensorOperationDescriptor_t *desc,
    const trntensorTensorDescriptor_t descA, const int32_t modeA[], trntensorOperator_t opA,
    const trntensorTensorDescriptor_t descC, const int32_t modeC[], trntensorOperator_t opC,
    const trntensorTensorDescriptor_t descD, const int32_t modeD[], trntensorOperator_t opAC,
    const trntensorComputeDescriptor_t descCompute);

/* B = alpha * opA(A) with B's modes a permutation of A's (a mode of B may
 * be missing from A: broadcast).
 *
 * A and B may have different data types (cuTENSOR's "arbitrary data
 * types" of a permutation): TRNSCI_R_64F -> TRNSCI_R_32F and TRNSCI_R_32F ->
 * TRNSCI_R_64F, with descCompute TRNTENSOR_COMPUTE_DESC_32F or _64F (any
 * other is TRNTENSOR_STATUS_NOT_SUPPORTED). Each element is alpha *
 * opA(a) formed in the compute precision — for 32F, a is rounded to FP32
 * first and the result is rounded to FP32; for 64F nothing is rounded
 * before the end — and rounded once to B's type, round to nearest even
 * (an FP32 result of 32F compute stored into R_64F is exact). So with
 * alpha = 1 and TRNTENSOR_OP_IDENTITY, R_64F -> R_32F is the plain IEEE
 * conversion (numpy's astype(float32)) under either compute descriptor, and
 * R_32F -> R_64F is exact. alpha is a float (32F) or a double (64F). An
 * identity permutation (same modes in the same order) of packed tensors
 * runs as one plain conversion loop per shard, large ones split over the
 * daemon's cores, at memory bandwidth. A and
 * B must not overlap (a conversion cannot run in place); the daemon
 * refuses it with TRNTENSOR_STATUS_INVALID_VALUE. A daemon older than
 * protocol 1.6 cannot convert: trntensorPermute then returns
 * TRNTENSOR_STATUS_NOT_SUPPORTED. */
trntensorStatus_t
trntensorCreatePermutation(const trntensorHandle_t handle, trntensorOperationDescriptor_t *desc,
                           const trntensorTensorDescriptor_t descA, const int32_t modeA[],
                           trntensorOperator_t opA, const trntensorTensorDescriptor_t descB,
                           const int32_t modeB[], const trntensorComputeDescriptor_t descCompute);

/* D = alpha * opReduce over the modes of A that D lacks of opA(A) + beta *
 * opC(C). opReduce is ADD, MUL, MAX or MIN. modeC equals modeD and descC
 * describes descD's layout. */
trntensorStatus_t trntensorCreateReduction(
    const trntensorHandle_t handle, trntensorOperationDescriptor_t *desc,
    const trntensorTensorDescriptor_t descA, const int32_t modeA[], trntensorOperator_t opA,
    const trntensorTensorDescriptor_t descC, const int32_t modeC[], trntensorOperator_t opC,
    const trntensorTensorDescriptor_t descD, const int32_t modeD[], trntensorOperator_t opReduce,
    const trntensorComputeDescriptor_t descCompute);

trntensorStatus_t trntensorDestroyOperationDescriptor(trntensorOperationDescriptor_t desc);

/* TAG is settable (and readable); SCALAR_TYPE, FLOPS and MOVED_BYTES are
 * readable. sizeInBytes must be the attribute's size.
 *
 * PADDING_LEFT, PADDING_RIGHT and PADDING_VALUE (settable and readable)
 * pad the output B of a permutation, as cuTENSOR does: descB's extents
 * are those of the data (A's), and B in memory has extent
 * extent[i] + left[i] + right[i] along mode i; those padded positions
 * before and after the data hold the padding value (default 0) and the
 * others alpha opA(A). When descB was made with stride NULL its strides
 * are the packed ones of the padded extents; explicit strides are taken
 * as given (they must describe the padded tensor). LEFT and RIGHT are
 * arrays of descB's numModes counts (uint32_t; int arrays are accepted,
 * a negative count is TRNTENSOR_STATUS_INVALID_VALUE); VALUE is one value
 * of B's data type. On another operation they are
 * TRNTENSOR_STATUS_NOT_SUPPORTED. A padded permutation needs a daemon of
 * protocol 1.14 (trntensorPermute returns TRNTENSOR_STATUS_NOT_SUPPORTED
 * from an older one). */
trntensorStatus_t trntensorOperationDescriptorSetAttribute(
    const trntensorHandle_t handle, trntensorOperationDescriptor_t desc,
    trntensorOperationDescriptorAttribute_t attr, const void *buf, size_t sizeInBytes);
trntensorStatus_t trntensorOperationDescriptorGetAttribute(
    const trntensorHandle_t handle, trntensorOperationDescriptor_t desc,
    trntensorOperationDescriptorAttribute_t attr, void *buf, size_t sizeInBytes);

/* ---- plans ------------------------------------------------------------------ */

/* A plan preference (algorithm and JIT mode); accepted and kept, the daemon
 * chooses the mapping itself. */
trntensorStatus_t trntensorCreatePlanPreference(const trntensorHandle_t handle,
                                                trntensorPlanPreference_t *pref,
                                                trntensorAlgo_t algo, trntensorJitMode_t jitMode);
trntensorStatus_t trntensorDestroyPlanPreference(trntensorPlanPreference_t pref);
trntensorStatus_t trntensorPlanPreferenceSetAttribute(const trntensorHandle_t handle,
                                                      trntensorPlanPreference_t pref,
                                                      trntensorPlanPreferenceAttribute_t attr,
                                                      const void *buf, size_t sizeInBytes);

/* The workspace the operation needs: always 0 (the daemon owns scratch). */
trntensorStatus_t trntensorEstimateWorkspaceSize(const trntensorHandle_t handle,
                                                 const trntensorOperationDescriptor_t desc,
                                                 const trntensorPlanPreference_t planPref,
                                                 const trntensorWorksizePreference_t workspacePref,
                                                 uint64_t *workspaceSizeEstimate);

/* Makes the plan of desc (pref may be NULL). For a contraction the daemon
 * finds or prepares the plan in its plan cache — the classification of
 * modes and the GEMM mapping — and the plan holds a reference to it;
 * element-wise, permutation and reduction plans are host objects. The plan
 * keeps a copy of everything it needs: desc may be destroyed afterwards.
 * workspaceSizeLimit is ignored (no workspace is needed). */
trntensorStatus_t trntensorCreatePlan(const trntensorHandle_t handle, trntensorPlan_t *plan,
                                      const trntensorOperationDescriptor_t desc,
                                      const trntensorPlanPreference_t pref,
                                      uint64_t workspaceSizeLimit);
/* Releases the plan (and its reference to the daemon's cached plan, which
 * stays cached for the next user). */
trntensorStatus_t trntensorDestroyPlan(trntensorPlan_t plan);
trntensorStatus_t trntensorPlanGetAttribute(const trntensorHandle_t handle,
                                            const trntensorPlan_t plan,
                                            trntensorPlanAttribute_t attr, void *buf,
                                            size_t sizeInBytes);

/* ---- plan-cache and kernel-cache files ------------------------------------------- */

/* Contraction plans live in the daemon's plan cache, shared by every
 * process and kept across daemon restarts by the daemon itself. These calls
 * carry the list of contractions a handle planned from one run (or
 * machine) to another:
 *
 * trntensorHandleWritePlanCacheToFile writes the plan-cache keys of every
 * contraction planned with handle (trntensorCreatePlan, or read with the
 * call below) to filename: a text file, a header line then one key a line
 * (types, modes, extents, strides, compute type and conjugation; never
 * data). TRNTENSOR_STATUS_IO_ERROR when the file cannot be written.
 *
 * trntensorHandleReadPlanCacheFromFile plans each contraction the file
 * lists in the daemon's cache and releases it there, so that the next
 * trntensorCreatePlan of the same contraction, by any process, is a cache
 * hit; *numCachelinesRead is how many it planned. Lines the daemon refuses
 * or that are not keys are skipped; a file that cannot be read or lacks the
 * header is TRNTENSOR_STATUS_IO_ERROR. The contractions read are added to
 * the handle's list (a later write includes them).
 *
 * trnsci compiles no kernels for a client (JIT is accepted and does
 * nothing), so trntensorWriteKernelCacheToFile writes a file with a header
 * only and trntensorReadKernelCacheFromFile accepts such a file and
 * changes nothing (TRNTENSOR_STATUS_IO_ERROR for any other file). */
/* cutensorHandleResizePlanCache: accepted (numEntries is not checked) and
 * ignored; the daemon's plan cache is shared and bounded by its own memory
 * limit (trnscid --plan-cache-bytes). */
trntensorStatus_t trntensorHandleResizePlanCache(trntensorHandle_t handle,
                                                 const uint32_t numEntries);
trntensorStatus_t trntensorHandleWritePlanCacheToFile(const trntensorHandle_t handle,
                                                      const char filename[]);
trntensorStatus_t trntensorHandleReadPlanCacheFromFile(trntensorHandle_t handle,
                                                       const char filename[],
                                                       uint32_t *numCachelinesRead);
trntensorStatus_t trntensorWriteKernelCacheToFile(const trntensorHandle_t handle,
                                                  const char filename[]);
trntensorStatus_t trntensorReadKernelCacheFromFile(trntensorHandle_t handle, const char filename[]);

/* ---- execution (asynchronous on stream) --------------------------------------- */

/* D = alpha * A * B + beta * C with plan from trntensorCreateContraction.
 * workspace may be NULL (workspaceSize is ignored). beta = 0: C is not read. */
trntensorStatus_t trntensorContract(const trntensorHandle_t handle, const trntensorPlan_t plan,
                                    const void *alpha, const void *A, const void *B,
                                    const void *beta, const void *C, void *D, void *workspace,
                                    uint64_t workspaceSize, trnsciStream_t stream);

/* E = alpha * A * B * C + beta * D with plan from
 * trntensorCreateContractionTrinary (host scalars of the SCALAR_TYPE).
 * workspace may be NULL (workspaceSize is ignored: the daemon owns the
 * intermediate). beta = 0: D is not read. TRNTENSOR_STATUS_NOT_SUPPORTED
 * from a daemon older than protocol 1.15. */
trntensorStatus_t trntensorContractTrinary(const trntensorHandle_t handle,
                                           const trntensorPlan_t plan, const void *alpha,
                                           const void *A, const void *B, const void *C,
                                           const void *beta, const void *D, void *E,
                                           void *workspace, uint64_t workspaceSize,
                                           trnsciStream_t stream);

trntensorStatus_t trntensorElementwiseTrinaryExecute(const trntensorHandle_t handle,
                                                     const trntensorPlan_t plan, const void *alpha,
                                                     const void *A, const void *beta, const void *B,
                                                     const void *gamma, const void *C, void *D,
                                                     trnsciStream_t stream);

trntensorStatus_t trntensorElementwiseBinaryExecute(const trntensorHandle_t handle,
                                                    const trntensorPlan_t plan, const void *alpha,
                                                    const void *A, const void *gamma, const void *C,
                                                    void *D, trnsciStream_t stream);

trntensorStatus_t trntensorPermute(const trntensorHandle_t handle, const trntensorPlan_t plan,
                                   const void *alpha, const void *A, void *B,
                                   trnsciStream_t stream);

trntensorStatus_t trntensorReduce(const trntensorHandle_t handle, const trntensorPlan_t plan,
                                  const void *alpha, const void *A, const void *beta, const void *C,
                                  void *D, void *workspace, uint64_t workspaceSize,
                                  trnsciStream_t stream);

/* ---- einsum (trnsci extensions) -------------------------------------------------- */

/* C = alpha * einsum(subscripts, A[, B]) + beta * C on the handle's stream,
 * numpy.einsum's notation with explicit output ("ia,ja->ij", "ii->",
 * "ijk->kji"): one letter (a-z, A-Z) per mode, modes listed in the order
 * of the descriptor's modes (mode 0 first). One operand (descB and B NULL):
 * a permutation, trace or sum; two operands: a contraction through the plan
 * cache (as trntensorCreateContraction + trntensorCreatePlan +
 * trntensorContract would). descCompute as for contractions. */
trntensorStatus_t trntensorEinsum(const trntensorHandle_t handle, const char *subscripts,
                                  const void *alpha, const trntensorTensorDescriptor_t descA,
                                  const void *A, const trntensorTensorDescriptor_t descB,
                                  const void *B, const void *beta,
                                  const trntensorTensorDescriptor_t descC, void *C,
                                  const trntensorComputeDescriptor_t descCompute);

typedef enum trntensorEinsumPathAlgo_t {
    TRNTENSOR_EINSUM_PATH_GREEDY = 0,  /* cheapest pair next (numpy's "greedy") */
    TRNTENSOR_EINSUM_PATH_OPTIMAL = 1, /* the cheapest order over all orders (n <= 8) */
} trntensorEinsumPathAlgo_t;

/* The pairwise contraction order of an n-operand einsum (numOperands 1 ..
 * 8; descs[i] gives operand i's extents): path[2k], path[2k+1] (k = 0 ..
 * numOperands-2) are the positions, in the current operand list, of the
 * two operands contracted at step k; both are removed and their result is
 * appended at the end (numpy.einsum_path's convention). *flops receives the
 * path's multiply-add count times two. Computed on the host: no round
 * trip. */
trntensorStatus_t trntensorEinsumPath(const char *subscripts, int numOperands,
                                      const trntensorTensorDescriptor_t descs[],
                                      trntensorEinsumPathAlgo_t algo, int32_t path[],
                                      double *flops);

/* ---- Fused chemistry kernels (trnsci extensions) ------------------------------ */

/* trntensorAoToMo (B[i,a,P] = sum over mu, nu of C_occ[mu,i] C_vir[nu,a]
 * (P|mu nu)) and trntensorMp2Energy (the DF-MP2 correlation energy) are
 * declared in <trnsci/trntensor_chem.h>, which includes this header. They
 * use trntensorHandle_t, its stream (trntensorSetStream) and the status
 * codes above. Wire fields 104-111 of Op are theirs. */

#ifdef __cplusplus
}
#endif

#endif
