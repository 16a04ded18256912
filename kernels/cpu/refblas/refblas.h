/*
 * refblas.h — the in-tree BLAS kernels: one trn_ref_cblas_X for each of
 * the 108 CBLAS routines the CPU kernels call through the routine table
 * (kernels/cpu/routines.h, TRN_ROUTINES_BLAS1/2/3). The start-up self-test
 * installs one in place of a library routine that computes wrong results
 * or reads out of bounds on this CPU.
 *
 * Each trn_ref_cblas_X is declared with __typeof__(cblas_X), so it has
 * exactly the type <cblas.h> gives the library routine and can sit in the
 * routine's table slot.
 *
 * Semantics are reference BLAS's, called through CBLAS:
 *  - Column-major only. CblasRowMajor is NOT supported: a call with any
 *    order other than CblasColMajor returns without touching anything.
 *  - Invalid arguments (an unknown enum, a negative dimension, a leading
 *    dimension too small, a zero increment where reference BLAS rejects it)
 *    return without touching anything, as reference BLAS does after
 *    xerbla. CblasConjNoTrans is accepted where OpenBLAS accepts it
 *    (conjugate, no transpose; the same as CblasNoTrans for real types).
 *  - Quick returns as reference BLAS; beta = 0 does not read C (or y);
 *    alpha = 0 reads neither A nor B; only the `uplo` triangle of a
 *    symmetric, Hermitian or triangular matrix is read, the diagonal is
 *    not read for CblasUnit, nor the imaginary parts of a Hermitian
 *    diagonal, and the rank-k / rank-1 updates write only the `uplo`
 *    triangle (Hermitian ones with an exactly real diagonal).
 *  - Vectors point to their lowest-addressed element for negative
 *    increments; read-only vectors may have increment 0.
 *  - i?amax / i?amin return the 0-based index of the first extremal |x|
 *    (|re| + |im| for complex types), 0 for n <= 0 or incx <= 0.
 *
 * The kernels accumulate in the working precision, except the single
 * precision nrm2s (in double); dnrm2 and dznrm2 scale so that neither
 * overflows nor underflows when the result is representable. They use no
 * threads and allocate nothing (small fixed buffers on the stack).
 */
#ifndef TRN_KERNELS_CPU_REFBLAS_REFBLAS_H
#define TRN_KERNELS_CPU_REFBLAS_REFBLAS_H

#include <cblas.h>

#include "kernels/cpu/routines.h"

#define TRN_REF_DECL(group, name) __typeof__(name) trn_ref_##name;
TRN_ROUTINES_BLAS1(TRN_REF_DECL)
TRN_ROUTINES_BLAS2(TRN_REF_DECL)
TRN_ROUTINES_BLAS3(TRN_REF_DECL)
#undef TRN_REF_DECL

/* The in-tree kernel of routine routine_id (a TRN_R_cblas_... id), as a
 * pointer of the routine's own type converted to void *; NULL for an id
 * that is not a BLAS routine. */
void *trn_ref_blas(int routine_id);

#endif
