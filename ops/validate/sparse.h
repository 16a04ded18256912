/*
 * sparse.h — checks shared by the trnsparse validators
 * (validate_sparse*.c): the wire's SparseMatrix, DenseMatrix and
 * DenseVector become kernel views (trn_sp_mat, trn_dn_mat) once their
 * numbers are checked and every array is resolved inside one of the
 * session's buffers. Contents (offsets, indices) are never read here: the
 * kernels check them when they run. Each returns TRN_WIRE_OK or an error
 * code with err naming the routine `fn`, the argument and the rule.
 * Internal to ops/validate/
 */
#ifndef TRN_OPS_VALIDATE_SPARSE_H
#define TRN_OPS_VALIDATE_SPARSE_H

#include "ops/validate/kit.h"

/* Which arrays of a sparse matrix the op touches (those the format has). */
#define TRN_VSP_OFFSETS 1u
#define TRN_VSP_INDICES 2u
#define TRN_VSP_ROWIND 4u /* COO row indices */
#define TRN_VSP_VALUES 8u
#define TRN_VSP_STRUCTURE (TRN_VSP_OFFSETS | TRN_VSP_INDICES | TRN_VSP_ROWIND)
#define TRN_VSP_ALL (TRN_VSP_STRUCTURE | TRN_VSP_VALUES)
/* Not an array: the routine takes a strided batch of CSR/COO matrices
 * (without it, batch_count > 1 is UNIMPLEMENTED). */
#define TRN_VSP_BATCH 16u
/* Not an array: the routine takes complex values (C_32F, C_64F) too (the
 * sparse direct solvers, the conversions, geam, SpSV/SpSM, SpGEMM, SDDMM,
 * the incomplete factorisations); without it they are UNIMPLEMENTED. Dense
 * operands and the compute type then follow the sparse matrix's type
 * (trn_vsp_dense, _vector, _compute accept a complex type only when it is
 * passed to them). */
#define TRN_VSP_COMPLEX 32u
/* Not an array: the routine also takes complex (C_32F, C_64F) and 16-bit
 * (R_16F, R_16BF) values (SpMV, SpMM); without it they are refused. */
#define TRN_VSP_SPMM_TYPES 256u

/* The values' type of an SpMV/SpMM operand: R_32F, R_64F, C_32F, C_64F,
 * R_16F or R_16BF (anything else INVALID_ARGUMENT). */
trn_wire_code trn_vsp_spmm_dtype(trn_vctx *vx, const char *fn, const char *name,
                                 Trnsci__V1__DataType t, trn_dtype *out);

/* A sparse matrix. `formats` is a bit mask of (1u << trn_sp_format) the op
 * accepts; `arrays` the TRN_VSP_* the op reads or writes (0: none resolved,
 * only the numbers checked). */
trn_wire_code trn_vsp_matrix(trn_vctx *vx, const Trnsci__V1__SparseMatrix *w, const char *fn,
                             const char *name, unsigned formats, unsigned arrays, trn_sp_mat *out);
#define TRN_VSP_FMT(f) (1u << (f))

/* One array of a sparse matrix: count elements of es bytes, aligned to
 * align, named "<fn>: <name> <array>" in a refusal. */
trn_wire_code trn_vsp_array(trn_vctx *vx, const Trnsci__V1__BufferRef *ref, uint64_t count,
                            uint64_t es, uint64_t align, const char *fn, const char *name,
                            const char *array, void **out);

/* The rest of trn_vsp_matrix for Blocked-ELL and Sliced-ELL (sparse_ell.c):
 * out's format, idx64, base and type are set. */
trn_wire_code trn_vsp_ell(trn_vctx *vx, const Trnsci__V1__SparseMatrix *w, const char *fn,
                          const char *name, unsigned arrays, trn_sp_mat *out);

/* A strided batch of CSR/COO matrices (batch_count > 1, sparse_ell.c):
 * checks the strides and sets *noff_all, *nnz_all, *nval_all to the
 * entries the offsets, indices and values of the whole batch span (one
 * matrix has noff, w->nnz and nval); fills out's batch fields. */
trn_wire_code trn_vsp_batch(trn_vctx *vx, const Trnsci__V1__SparseMatrix *w, const char *fn,
                            const char *name, trn_sp_format f, uint64_t noff, uint64_t nval,
                            uint64_t *noff_all, uint64_t *nnz_all, uint64_t *nval_all,
                            trn_sp_mat *out);

/* A dense matrix of `type`; batch_count > 1 only with allow_batch. `resolve`
 * 0 checks the numbers only (the op does not touch it). */
trn_wire_code trn_vsp_dense(trn_vctx *vx, const Trnsci__V1__DenseMatrix *w, const char *fn,
                            const char *name, trn_dtype type, int allow_batch, int resolve,
                            trn_dn_mat *out);

/* A dense vector of `type` and `size` elements (size < 0: any), as a
 * column-major size x 1 matrix. */
trn_wire_code trn_vsp_vector(trn_vctx *vx, const Trnsci__V1__DenseVector *w, const char *fn,
                             const char *name, trn_dtype type, int64_t size, int resolve,
                             trn_dn_mat *out);

/* The op(A) of a sparse routine: N, or T (C is T for real types). */
trn_wire_code trn_vsp_op(trn_vctx *vx, const char *fn, const char *name, Trnsci__V1__Operation op,
                         trn_trans *out);

/* compute_type must be the operands' type. */
trn_wire_code trn_vsp_compute(trn_vctx *vx, const char *fn, Trnsci__V1__DataType compute,
                              trn_dtype type);

#endif
