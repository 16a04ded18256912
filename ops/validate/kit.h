/*
 * kit.h — the checks every family's validator is built from, family-neutral:
 * wire enums to descriptor enums, integer and real arguments, and the
 * regions of matrices, strided vectors and arrays inside the caller's
 * buffers, with their extents in overflow-checked arithmetic.
 *
 * Each check returns TRN_WIRE_OK, or the error code with a message written
 * through vx that names the argument ("<fn>: <name>" or the `what` given)
 * and the rule; the mappings return 0, or -1 for a value outside the enum
 * (protobuf-c passes unknown values through) and leave the message to the
 * caller, who knows which values the routine takes. Internal to
 * ops/validate/.
 */
#ifndef TRN_OPS_VALIDATE_KIT_H
#define TRN_OPS_VALIDATE_KIT_H

#include "ops/validate/validate.h"

/* ---- wire enums to descriptor enums ------------------------------------------------ */

int trn_vk_dtype(Trnsci__V1__DataType t, trn_dtype *out); /* R_32F, R_64F, C_32F, C_64F */
int trn_vk_trans(Trnsci__V1__Operation op, trn_trans *out);
/* Fill mode LOWER or UPPER (FULL is refused: no routine here takes it). */
int trn_vk_uplo(Trnsci__V1__FillMode u, trn_uplo *out);
int trn_vk_diag(Trnsci__V1__DiagType d, trn_diag *out);
int trn_vk_side(Trnsci__V1__SideMode s, trn_side *out);

/* A real data type (R_32F, R_64F): complex ones are UNIMPLEMENTED, anything
 * else INVALID_ARGUMENT, each with a message naming `fn: name`. */
trn_wire_code trn_vk_real_dtype(trn_vctx *vx, const char *fn, const char *name,
                                Trnsci__V1__DataType t, trn_dtype *out);

/* The alignment a kernel may assume of a dtype's elements: the size of its
 * real component. */
static inline uint64_t trn_vk_align(trn_dtype t) {
    switch (t) {
    case TRN_DTYPE_R32F:
    case TRN_DTYPE_C32F:
    case TRN_DTYPE_R32I: return 4;
    case TRN_DTYPE_R16F:
    case TRN_DTYPE_R16BF: return 2;
    case TRN_DTYPE_R8I:
    case TRN_DTYPE_C8I: return 1;
    case TRN_DTYPE_R64F:
    case TRN_DTYPE_C64F: break;
    }
    return 8;
}

/* The precision of a wire compute type: 32 or 64 for the 32F and 64F
 * modes, 0 for COMPUTE_DEFAULT (the data type's own), -1 for a value that
 * is no compute type. Its values are trn_compute's (ops/validate/wire_enums.c). */
int trn_vk_compute_bits(Trnsci__V1__ComputeType c);

/* A wire scalar (absent: 0). */
trn_scalar trn_vk_scalar(const Trnsci__V1__Scalar *s);

/* ---- numbers ----------------------------------------------------------------------- */

/* A dimension: 0 <= v <= INT_MAX. */
trn_wire_code trn_vk_dim(trn_vctx *vx, const char *fn, const char *name, int64_t v, int *out);
/* A leading dimension: max(1, rows) <= ld <= INT_MAX; rows_expr names rows
 * in the message ("m"). */
trn_wire_code trn_vk_ld(trn_vctx *vx, const char *fn, const char *name, int64_t ld, int rows,
                        const char *rows_expr, int *out);
/* An int argument that travelled as int64 (increments may be negative). */
trn_wire_code trn_vk_int(trn_vctx *vx, const char *fn, const char *name, int64_t v, int *out);
/* An iteration count: 0 .. INT_MAX, 0 meaning the routine's default dflt. */
trn_wire_code trn_vk_count(trn_vctx *vx, const char *fn, const char *name, int64_t v, int dflt,
                           int *out);
/* A tolerance: finite and >= 0, 0 meaning the routine's default dflt. */
trn_wire_code trn_vk_tol(trn_vctx *vx, const char *fn, const char *name, double v, double dflt,
                         double *out);

/* ---- regions ----------------------------------------------------------------------- */

/* Bytes of a vector of n >= 1 elements of es bytes with increment inc (any
 * sign; 0 reads one element): (|inc|(n-1)+1)·es; -1 on 64-bit overflow. */
int trn_vk_vector_bytes(int n, int inc, uint64_t es, uint64_t *out);

/* Bytes of batch matrices (or vectors) stride elements of es bytes apart,
 * each spanning one bytes: (batch-1)*stride*es + one, or 0 when one is 0;
 * -1 on 64-bit overflow. */
int trn_vk_batch_bytes(uint64_t one, uint64_t batch, uint64_t stride, uint64_t es, uint64_t *out);

/* The operand `fn: name`, a column-major rows x cols matrix of es-byte
 * elements with leading dimension ld (the caller has checked ld >=
 * max(1, rows)), aligned to align: its extent, checked for overflow,
 * resolved inside one of the caller's buffers (trn_vregion). An empty
 * matrix resolves to NULL when no buffer is given. */
trn_wire_code trn_vk_matrix(trn_vctx *vx, const Trnsci__V1__BufferRef *ref, int rows, int cols,
                            int ld, uint64_t es, uint64_t align, const char *fn, const char *name,
                            void **out);
/* The vector `fn: name` of n elements with increment inc (any sign; 0 reads
 * one element), as trn_vk_matrix; n == 0 needs no bytes. */
trn_wire_code trn_vk_vector(trn_vctx *vx, const Trnsci__V1__BufferRef *ref, int n, int inc,
                            uint64_t es, uint64_t align, const char *fn, const char *name,
                            void **out);
/* The contiguous array `fn: name` of count elements, as trn_vk_matrix. */
trn_wire_code trn_vk_array(trn_vctx *vx, const Trnsci__V1__BufferRef *ref, uint64_t count,
                           uint64_t es, uint64_t align, const char *fn, const char *name,
                           void **out);

/* ---- overlap of listed matrices --------------------------------------------------- */

/* Whether two rows x cols column-major matrices with leading dimension
 * ld >= rows whose first elements are delta elements apart share an
 * element. */
int trn_vk_matrices_collide(uint64_t delta, uint64_t rows, uint64_t cols, uint64_t ld);
/* Ops that write a batch of listed matrices in parallel: no two of the
 * count matrices at mats (rows x cols, leading dimension ld, es-byte
 * elements, each already resolved inside a buffer) may share an element
 * ("fn: name[i] and name[j] overlap"; cuBLAS leaves such outputs
 * undefined, and split over cores they would race). */
trn_wire_code trn_vk_disjoint(trn_vctx *vx, const char *fn, const char *name, void *const *mats,
                              size_t count, uint64_t rows, uint64_t cols, uint64_t ld, uint64_t es);

#endif
