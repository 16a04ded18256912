/*
 * convert_stage.h — the format conversions an op needs before it computes,
 * made a stage of their own that runs on a copy engine (trn_engine), so
 * that they overlap other ops' compute instead of taking the cores' time.
 *
 * Today: the precision modes of an FP32 GEMM (FAST_16BF, FAST_TF32,
 * FAST_16F, BF16X3, BF16X9; kernels/cpu/gemm_lowprec.c). Done inline, every
 * shard of the GEMM cuts all of op(A) into its low-precision pieces again;
 * ahead, the conversion stage cuts op(A) and op(B) once, into scratch
 * memory the op owns, and the GEMM stage multiplies the pieces. The pieces
 * are the same values in the same layout as the inline path's, and the
 * GEMM stage makes the same BLAS calls on them, so the result is bitwise
 * the inline one.
 *
 * Pure: the descriptors of the two stages and the scratch they need; the
 * daemon (daemon/service_convert.c) allocates the scratch and queues the
 * stages, and a backend says whether it runs them (backend.h,
 * converts_ahead). Backend-neutral: on Trainium the same stage is the DMA
 * engine's cast of the operands to bfloat16.
 */
#ifndef TRN_OPS_CONVERT_STAGE_H
#define TRN_OPS_CONVERT_STAGE_H

#include <stddef.h>

#include "ops/op.h"

/* Scratch for the pieces is capped (past it the GEMM converts inline). */
#define TRN_CONVERT_STAGE_MAX_BYTES ((size_t)1 << 30)

/* Bytes of scratch op's conversion stage needs, or 0 when op has none: not
 * one GEMM of R32F / C32F values in a precision mode, or too small for its
 * GEMM to be split over cores (then the inline conversion is done once
 * anyway), or past TRN_CONVERT_STAGE_MAX_BYTES. */
size_t trn_convert_stage_bytes(const trn_op_desc *op);

/* Cuts op (trn_convert_stage_bytes(op) > 0) into its conversion stage and
 * its compute stage, both reading and writing scratch (that many bytes,
 * 16-byte aligned, owned by the op until it completes). */
void trn_convert_stage_split(const trn_op_desc *op, void *scratch, trn_op_desc *convert,
                             trn_op_desc *compute);

/* Standalone conversions: an op that only converts or rearranges data — a
 * sparse format conversion (SPCONVERT), or a tensor permutation without a
 * unary operator other than the identity or conjugation (FP64 <-> FP32
 * included; alpha scales each element once). The backend may run it on a
 * copy engine beside the cores' compute (backend.h, engine_for); its result
 * is the same on any engine and any shard count, so the scheduler lets it
 * take the cores when they are idle as it starts (trn_sched_op's
 * first_stage_anywhere rule, for every stage such an op is). */
int trn_convert_standalone(const trn_op_desc *op);

/* The number of low-precision pieces each value of a GEMM in compute mode
 * c is cut into (FAST modes 1, BF16X3 2, BF16X9 3), or 0: not a precision
 * mode that cuts its operands into pieces. */
unsigned trn_gemm_pieces(trn_compute c);

#endif
