/*
 * op_kinds.h — every op kind, one row each: the one list the layers read
 * (the BLIS way: a kernel registers in one place, and nothing else switches
 * over op kinds).
 *
 * X(KIND, value, stem, field, label, title, family, engine):
 *   KIND    TRN_OP_<KIND> (ops/op.h)
 *   value   its number: the wire's Op oneof field, by convention
 *   stem    names the kind's functions by convention: trn_op_cost_<stem>
 *           and trn_op_parallel_<stem> (ops/), and each backend's kernel
 *           entry for it (kernels/cpu/backend_cpu.c)
 *   field   its descriptor in trn_op_desc.u
 *   label   its name in metrics (a Prometheus label value)
 *   title   its name in messages and logs ("sparse convert")
 *   family  the library family: memory, blas, fft, rand, solver, sparse,
 *           tensor
 *   engine  where it runs: CORE (compute) or COPY (data movement beside
 *           the cores)
 */
#ifndef TRN_OPS_OP_KINDS_H
#define TRN_OPS_OP_KINDS_H

#define TRN_OP_KINDS(X)                                                                            \
    X(MEMSET, 1, memset, memset, "memset", "memset", "memory", COPY)                               \
    X(COPY, 2, copy, copy, "copy", "copy", "memory", COPY)                                         \
    X(GEMM, 16, gemm, gemm, "gemm", "gemm", "blas", CORE)                                          \
    X(BLAS1, 17, blas1, blas1, "blas1", "blas1", "blas", CORE)                                     \
    X(BLAS2, 18, blas2, blas2, "blas2", "blas2", "blas", CORE)                                     \
    X(BLAS3, 19, blas3, blas3, "blas3", "blas3", "blas", CORE)                                     \
    X(FFT, 32, fft, fft, "fft", "fft", "fft", CORE)                                                \
    X(RAND, 48, rand, rand, "rand", "rand", "rand", CORE)                                          \
    X(SOLVER_DENSE, 64, solver_dense, solver_dense, "solver_dense", "solver", "solver", CORE)      \
    X(SOLVER_BATCHED, 65, solver_batched, solver_batched, "solver_batched", "solver", "solver",    \
      CORE)                                                                                        \
    X(SOLVER_EIGEN, 66, solver_eigen, solver_eigen, "solver_eigen", "solver", "solver", CORE)      \
    X(SOLVER_REFINE, 67, solver_refine, solver_refine, "solver_refine", "solver", "solver", CORE)  \
    X(SOLVER_KRYLOV, 68, solver_krylov, solver_krylov, "solver_krylov", "solver", "solver", CORE)  \
    X(SPMV, 80, spmv, spmm, "spmv", "spmv", "sparse", CORE)                                        \
    X(SPMM, 81, spmm, spmm, "spmm", "spmm", "sparse", CORE)                                        \
    X(SPGEMM, 82, spgemm, spgemm, "spgemm", "spgemm", "sparse", CORE)                              \
    X(SDDMM, 83, sddmm, sddmm, "sddmm", "sddmm", "sparse", CORE)                                   \
    X(SPCONVERT, 84, spconvert, spconvert, "spconvert", "sparse convert", "sparse", CORE)          \
    X(SPATTN, 85, spattn, attn, "spattn", "block-sparse attention", "sparse", CORE)                \
    X(SCHWARZ, 86, schwarz, schwarz, "schwarz", "schwarz bounds", "sparse", CORE)                  \
    X(TENSOR_CONTRACT, 96, tensor_contract, tensor_contract, "tensor_contract", "tensor contract", \
      "tensor", CORE)                                                                              \
    X(TENSOR_ELEMENTWISE, 97, tensor_elementwise, tensor_ew, "tensor_elementwise",                 \
      "tensor elementwise", "tensor", CORE)                                                        \
    X(TENSOR_REDUCTION, 98, tensor_reduction, tensor_ew, "tensor_reduction", "tensor reduction",   \
      "tensor", CORE)                                                                              \
    X(AO_TO_MO, 104, ao_to_mo, ao_to_mo, "ao_to_mo", "aoToMo", "tensor", CORE)                     \
    X(MP2_ENERGY, 105, mp2_energy, mp2_energy, "mp2_energy", "mp2Energy", "tensor", CORE)

#endif
