/*
 * tensor.h — the descriptors of trntensor: contractions (and the spec a
 * contraction plan is made for), element-wise operations, permutations,
 * reductions, and the fused chemistry kernels.
 */
#ifndef TRN_OPS_TENSOR_H
#define TRN_OPS_TENSOR_H

#include "ops/blas.h"
#include "ops/types.h"

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
    trn_dtype type; /* R32F, R64F, C32F or C64F */
    trn_compute compute;
    trn_tensor_layout a, b, d;
    int conj_a, conj_b; /* complex only: A, B conjugated (TRNTENSOR_OP_CONJ) */
} trn_tensor_contract_spec;

/* D = alpha A B + beta C through a prepared plan (ops/tensor_plan.h).
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

/* E = alpha A B C + beta D (cutensorContractTrinary) through the plan the
 * validator made (ops/tensor_plan.h's trn_tensor_trinary_plan, in the op's
 * owned memory). d is NULL when beta = 0, and may equal e. */
typedef struct trn_tensor_trinary_desc {
    const void *plan; /* the trn_tensor_trinary_plan */
    trn_dtype type;
    double flops; /* both pairwise steps */
    trn_scalar alpha, beta;
    const void *a, *b, *c, *d;
    void *e;
} trn_tensor_trinary_desc;

/* Element-wise ops, permutations and reductions over D's modes, resolved by
 * the validator: mode i of D has extent[i]; stride_x[i] is input x's stride
 * for that mode (0 when x lacks it: broadcast); reduced modes (reductions
 * only) have rextent[] and A's strides rstride_a[]. Inputs that are absent
 * have NULL pointers. Data are real or complex (C32F, C64F: complex
 * scalars, operators IDENTITY / CONJ and ADD / MUL). Every operand has
 * data type `type`, except A of a
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
    /* A padded permutation (CUTENSOR_OPERATION_DESCRIPTOR_PADDING_*): D's
     * extents are the padded ones; along mode i the positions [pad_lo[i],
     * pad_hi[i]) hold alpha opA(A) (A's index being D's less pad_lo[i]) and
     * the others pad_value, in D's type. */
    int padded;
    int64_t pad_lo[TRN_TENSOR_MAX_MODES], pad_hi[TRN_TENSOR_MAX_MODES];
    trn_scalar pad_value;
} trn_tensor_ew_desc;

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

/* This family's op kinds: its rows of the list of kinds (ops/op_kinds.h
 * says what each column is). */
#define TRN_TENSOR_KINDS(X)                                                                        \
    X(TENSOR_CONTRACT, 96, TENSOR_CONTRACT, tensor_contract, tensor_contract, "tensor_contract",   \
      "tensor contract", "tensor", CORE)                                                           \
    X(TENSOR_ELEMENTWISE, 97, TENSOR_ELEMENTWISE, tensor_elementwise, tensor_ew,                   \
      "tensor_elementwise", "tensor elementwise", "tensor", CORE)                                  \
    X(TENSOR_REDUCTION, 98, TENSOR_REDUCTION, tensor_reduction, tensor_ew, "tensor_reduction",     \
      "tensor reduction", "tensor", CORE)                                                          \
    X(TENSOR_CONTRACT_TRINARY, 99, TENSOR_CONTRACT_TRINARY, tensor_contract_trinary,               \
      tensor_trinary, "tensor_contract_trinary", "tensor contract trinary", "tensor", CORE)        \
    X(AO_TO_MO, 104, AO_TO_MO, ao_to_mo, ao_to_mo, "ao_to_mo", "aoToMo", "tensor", CORE)           \
    X(MP2_ENERGY, 105, MP2_ENERGY, mp2_energy, mp2_energy, "mp2_energy", "mp2Energy", "tensor",    \
      CORE)

/* Its descriptors' places in trn_op_desc.u (ops/op.h): X(type, field); tensor_ew:
 * TRN_OP_TENSOR_ELEMENTWISE, _REDUCTION. */
#define TRN_TENSOR_DESCS(X)                                                                        \
    X(trn_tensor_contract_desc, tensor_contract)                                                   \
    X(trn_tensor_ew_desc, tensor_ew)                                                               \
    X(trn_tensor_trinary_desc, tensor_trinary)                                                     \
    X(trn_ao_to_mo_desc, ao_to_mo)                                                                 \
    X(trn_mp2_energy_desc, mp2_energy)

#endif
