/*
 * op_kinds.h — every op kind, one row each: the one list the layers read
 * (the BLIS way: a kernel registers in one place, and nothing else switches
 * over op kinds).
 *
 * X(KIND, value, wire, stem, field, label, title, family, engine):
 *   KIND    TRN_OP_<KIND> (ops/op.h)
 *   value   its number, which is its wire case's
 *   wire    its case of the wire's Op oneof: TRNSCI__V1__OP__KIND_<wire>
 *   stem    names the kind's functions by convention: its cost model
 *           trn_op_model_<stem> (ops/models/<family>.c), its validator
 *           trn_vop_<stem> (ops/validate/), and each backend's kernel entry
 *           (trn_cpu_run_<stem>: kernels/cpu/)
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
    X(MEMSET, 1, MEMSET, memset, memset, "memset", "memset", "memory", COPY)                       \
    X(COPY, 2, COPY, copy, copy, "copy", "copy", "memory", COPY)                                   \
    X(GEMM, 16, GEMM, gemm, gemm, "gemm", "gemm", "blas", CORE)                                    \
    X(BLAS1, 17, BLAS1, blas1, blas1, "blas1", "blas1", "blas", CORE)                              \
    X(BLAS2, 18, BLAS2, blas2, blas2, "blas2", "blas2", "blas", CORE)                              \
    X(BLAS3, 19, BLAS3, blas3, blas3, "blas3", "blas3", "blas", CORE)                              \
    X(FFT, 32, FFT_EXEC, fft, fft, "fft", "fft", "fft", CORE)                                      \
    X(RAND, 48, RAND_GENERATE, rand, rand, "rand", "rand", "rand", CORE)                           \
    X(SOLVER_DENSE, 64, SOLVER_DENSE, solver_dense, solver_dense, "solver_dense", "solver",        \
      "solver", CORE)                                                                              \
    X(SOLVER_BATCHED, 65, SOLVER_BATCHED, solver_batched, solver_batched, "solver_batched",        \
      "solver", "solver", CORE)                                                                    \
    X(SOLVER_EIGEN, 66, SOLVER_EIGEN, solver_eigen, solver_eigen, "solver_eigen", "solver",        \
      "solver", CORE)                                                                              \
    X(SOLVER_REFINE, 67, SOLVER_REFINE, solver_refine, solver_refine, "solver_refine", "solver",   \
      "solver", CORE)                                                                              \
    X(SOLVER_KRYLOV, 68, SOLVER_KRYLOV, solver_krylov, solver_krylov, "solver_krylov", "solver",   \
      "solver", CORE)                                                                              \
    X(SPMV, 80, SPMV, spmv, spmm, "spmv", "spmv", "sparse", CORE)                                  \
    X(SPMM, 81, SPMM, spmm, spmm, "spmm", "spmm", "sparse", CORE)                                  \
    X(SPGEMM, 82, SPGEMM, spgemm, spgemm, "spgemm", "spgemm", "sparse", CORE)                      \
    X(SDDMM, 83, SDDMM, sddmm, sddmm, "sddmm", "sddmm", "sparse", CORE)                            \
    X(SPCONVERT, 84, SPARSE_CONVERT, spconvert, spconvert, "spconvert", "sparse convert",          \
      "sparse", CORE)                                                                              \
    X(SPATTN, 85, SPARSE_ATTENTION, spattn, attn, "spattn", "block-sparse attention", "sparse",    \
      CORE)                                                                                        \
    X(SCHWARZ, 86, SCHWARZ_BOUNDS, schwarz, schwarz, "schwarz", "schwarz bounds", "sparse", CORE)  \
    X(TENSOR_CONTRACT, 96, TENSOR_CONTRACT, tensor_contract, tensor_contract, "tensor_contract",   \
      "tensor contract", "tensor", CORE)                                                           \
    X(TENSOR_ELEMENTWISE, 97, TENSOR_ELEMENTWISE, tensor_elementwise, tensor_ew,                   \
      "tensor_elementwise", "tensor elementwise", "tensor", CORE)                                  \
    X(TENSOR_REDUCTION, 98, TENSOR_REDUCTION, tensor_reduction, tensor_ew, "tensor_reduction",     \
      "tensor reduction", "tensor", CORE)                                                          \
    X(AO_TO_MO, 104, AO_TO_MO, ao_to_mo, ao_to_mo, "ao_to_mo", "aoToMo", "tensor", CORE)           \
    X(MP2_ENERGY, 105, MP2_ENERGY, mp2_energy, mp2_energy, "mp2_energy", "mp2Energy", "tensor",    \
      CORE)

#endif
