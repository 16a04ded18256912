/*
 * validate.h — the one place where a wire op becomes a kernel descriptor.
 *
 * Every number a client sends is checked here, with overflow-checked
 * arithmetic, before any scheduler or kernel code sees the op: dimensions,
 * leading dimensions, buffer ids (the session's own only), offsets, extents
 * and alignment. On success the descriptor holds raw pointers into buffers
 * whose references are in refs (released when the op completes); on failure
 * nothing is held and err names the argument and the rule it broke.
 */
#ifndef TRN_DAEMON_VALIDATE_H
#define TRN_DAEMON_VALIDATE_H

#include "daemon/session.h"
#include "ops/op.h"
#include "trnsci/v1/trnsci.pb-c.h"

#define TRN_OP_MAX_BUFFERS 12

typedef struct trn_op_refs {
    trn_buffer *buf[TRN_OP_MAX_BUFFERS];
    int n;
    trn_plan_entry *plan; /* the plan the op runs (a reference), or NULL */
    unsigned plan_part;   /* the part of it the op needs */
    /* Ops whose number of operands is not bounded (pointer-array GEMM
     * batches, batched solvers): the
     * references past buf[] (trn_validate_region_many), and a heap block the
     * descriptor points into (its arrays of operand pointers). Both are
     * freed with the references. Zero-initialised: none. */
    trn_buffer **more;
    int nmore, more_cap;
    void *owned;
} trn_op_refs;

trn_wire_code trn_validate_op(trn_session *s, const Trnsci__V1__Op *op, trn_op_desc *out,
                              trn_op_refs *refs, char *err, size_t errlen);
void trn_op_refs_release(trn_op_refs *refs);

/* Helpers for the per-family validators (validate_*.c). */

/* Resolves ref to a pointer to `bytes` bytes of one of the session's buffers,
 * aligned to `align` bytes, and takes a reference into refs. `what` names the
 * argument in messages ("gemm: A"). bytes == 0 with buffer id 0 gives NULL.
 * At most TRN_OP_MAX_BUFFERS regions per op. */
trn_wire_code trn_validate_region(trn_session *s, const Trnsci__V1__BufferRef *ref, uint64_t bytes,
                                  uint64_t align, const char *what, trn_op_refs *refs, void **out,
                                  char *err, size_t errlen);

/* As trn_validate_region, for ops with any number of operands: once buf[]
 * is full the reference goes to refs->more. */
trn_wire_code trn_validate_region_many(trn_session *s, const Trnsci__V1__BufferRef *ref,
                                       uint64_t bytes, uint64_t align, const char *what,
                                       trn_op_refs *refs, void **out, char *err, size_t errlen);

/* One Write/Read/stage-out moves at most TRNSCI_WIRE_CHUNK_BYTES. */
trn_wire_code trn_validate_chunk(uint64_t len, const char *what, char *err, size_t errlen);

/* The GEMM family (validate_gemm.c). */
trn_wire_code trn_validate_gemm(trn_session *s, const Trnsci__V1__GemmOp *g, trn_gemm_desc *out,
                                trn_op_refs *refs, char *err, size_t errlen);

/* BLAS Level 1 (validate_blas.c). */
trn_wire_code trn_validate_blas1(trn_session *s, const Trnsci__V1__Blas1Op *b, trn_blas1_desc *out,
                                 trn_op_refs *refs, char *err, size_t errlen);

/* BLAS Level 2 (validate_blas2.c) and Level 3 beyond GEMM (validate_blas3.c). */
trn_wire_code trn_validate_blas2(trn_session *s, const Trnsci__V1__Blas2Op *b, trn_blas2_desc *out,
                                 trn_op_refs *refs, char *err, size_t errlen);
trn_wire_code trn_validate_blas3(trn_session *s, const Trnsci__V1__Blas3Op *b, trn_blas3_desc *out,
                                 trn_op_refs *refs, char *err, size_t errlen);

/* FFT execution of one of the session's plans (validate_fft.c): takes a
 * plan reference into refs and queues the build of the variant needed. */
trn_wire_code trn_validate_fft(trn_session *s, const Trnsci__V1__FftExecOp *f, trn_fft_desc *out,
                               trn_op_refs *refs, char *err, size_t errlen);
/* An FftPlanSpec as a plan spec (the effort is left for the cache to set)
 * and the handle's batch and distances (validate_fft.c). */
trn_wire_code trn_validate_fft_plan(const Trnsci__V1__FftPlanSpec *w, trn_plan_spec *spec,
                                    trn_session_plan *handle, char *err, size_t errlen);

/* The session's plan `id` with a reference to its entry, copied to *h:
 * 0, or -1 when the session has no such plan (validate_fft.c). */
int trn_validate_plan_get(trn_session *s, uint32_t id, trn_session_plan *h);

/* trntensor (validate_tensor.c). A TensorContractionSpec as a plan spec
 * (checked and canonical); contraction, element-wise and reduction ops. */
trn_wire_code trn_validate_tensor_plan(const Trnsci__V1__TensorContractionSpec *w,
                                       trn_plan_spec *spec, char *err, size_t errlen);
trn_wire_code trn_validate_tensor_contract(trn_session *s, const Trnsci__V1__TensorContractOp *w,
                                           trn_tensor_contract_desc *out, trn_op_refs *refs,
                                           char *err, size_t errlen);
trn_wire_code trn_validate_tensor_elementwise(trn_session *s,
                                              const Trnsci__V1__TensorElementwiseOp *w,
                                              trn_tensor_ew_desc *out, trn_op_refs *refs, char *err,
                                              size_t errlen);
trn_wire_code trn_validate_tensor_reduction(trn_session *s, const Trnsci__V1__TensorReductionOp *w,
                                            trn_tensor_ew_desc *out, trn_op_refs *refs, char *err,
                                            size_t errlen);

/* Random numbers (validate_rand.c). */
trn_wire_code trn_validate_rand(trn_session *s, const Trnsci__V1__RandGenerateOp *r,
                                trn_rand_desc *out, trn_op_refs *refs, char *err, size_t errlen);

/* trnsolver (validate_solver.c, validate_solver_iter.c). */
trn_wire_code trn_validate_solver_dense(trn_session *s, const Trnsci__V1__SolverDenseOp *w,
                                        trn_solver_dense_desc *out, trn_op_refs *refs, char *err,
                                        size_t errlen);
trn_wire_code trn_validate_solver_batched(trn_session *s, const Trnsci__V1__SolverBatchedOp *w,
                                          trn_solver_batched_desc *out, trn_op_refs *refs,
                                          char *err, size_t errlen);
trn_wire_code trn_validate_solver_eigen(trn_session *s, const Trnsci__V1__SolverEigenOp *w,
                                        trn_solver_eigen_desc *out, trn_op_refs *refs, char *err,
                                        size_t errlen);
trn_wire_code trn_validate_solver_refine(trn_session *s, const Trnsci__V1__SolverRefineOp *w,
                                         trn_solver_refine_desc *out, trn_op_refs *refs, char *err,
                                         size_t errlen);
trn_wire_code trn_validate_solver_krylov(trn_session *s, const Trnsci__V1__SolverKrylovOp *w,
                                         trn_solver_krylov_desc *out, trn_op_refs *refs, char *err,
                                         size_t errlen);
/* trnsparse SpMV and SpMM (validate_sparse.c). */
trn_wire_code trn_validate_spmv(trn_session *s, const Trnsci__V1__SpMVOp *w, trn_spmm_desc *out,
                                trn_op_refs *refs, char *err, size_t errlen);
trn_wire_code trn_validate_spmm(trn_session *s, const Trnsci__V1__SpMMOp *w, trn_spmm_desc *out,
                                trn_op_refs *refs, char *err, size_t errlen);
/* trnsparse format conversions (validate_sparse_convert.c). */
trn_wire_code trn_validate_spconvert(trn_session *s, const Trnsci__V1__SparseConvertOp *w,
                                     trn_spconvert_desc *out, trn_op_refs *refs, char *err,
                                     size_t errlen);
/* trnsparse SpGEMM and SDDMM (validate_sparse_spgemm.c). */
trn_wire_code trn_validate_spgemm(trn_session *s, const Trnsci__V1__SpGEMMOp *w,
                                  trn_spgemm_desc *out, trn_op_refs *refs, char *err,
                                  size_t errlen);
trn_wire_code trn_validate_sddmm(trn_session *s, const Trnsci__V1__SDDMMOp *w, trn_sddmm_desc *out,
                                 trn_op_refs *refs, char *err, size_t errlen);
/* trnsparse's trnsci extensions (validate_sparse_ext.c). */
trn_wire_code trn_validate_attention(trn_session *s, const Trnsci__V1__BlockSparseAttentionOp *w,
                                     trn_attn_desc *out, trn_op_refs *refs, char *err,
                                     size_t errlen);
trn_wire_code trn_validate_schwarz(trn_session *s, const Trnsci__V1__SchwarzBoundsOp *w,
                                   trn_schwarz_desc *out, trn_op_refs *refs, char *err,
                                   size_t errlen);

/* trntensor's fused chemistry kernels (validate_tensor_chem.c). */
trn_wire_code trn_validate_ao_to_mo(trn_session *s, const Trnsci__V1__AoToMoOp *w,
                                    trn_ao_to_mo_desc *out, trn_op_refs *refs, char *err,
                                    size_t errlen);
trn_wire_code trn_validate_mp2_energy(trn_session *s, const Trnsci__V1__Mp2EnergyOp *w,
                                      trn_mp2_energy_desc *out, trn_op_refs *refs, char *err,
                                      size_t errlen);

#endif
