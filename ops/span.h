/*
 * span.h — the memory an op reads or writes, as byte ranges, for the
 * scheduler's run-ahead (scheduler/sched.h: a stream's next op may start
 * its conversion while its current op computes, when what the current op
 * writes does not overlap what the conversion reads). Pure functions of
 * validated descriptors; an op whose memory is not described here never
 * lets an op behind it run ahead.
 */
#ifndef TRN_OPS_SPAN_H
#define TRN_OPS_SPAN_H

#include <stdint.h>

struct trn_op_desc;

/* Bytes [lo, hi) of the daemon's address space. */
typedef struct trn_span {
    uintptr_t lo, hi;
} trn_span;

/* Whether any of a[0 .. na) overlaps any of b[0 .. nb) (empty spans overlap
 * nothing). */
int trn_spans_overlap(const trn_span *a, int na, const trn_span *b, int nb);

/* Every byte op may write, into out (at most max spans): the count, or -1
 * when it is not known here. Known today: a memset or a copy (its
 * destination), a GEMM without pointer lists (C), a tensor permutation that
 * only converts (its D), and the sparse
 * conversions CSR -> CSC (the CSC's offsets, indices and values) and CSR ->
 * BSR (the BSR's block columns and blocks). */
int trn_op_write_spans(const struct trn_op_desc *op, trn_span *out, int max);

/* Every byte op may read, the same way: a GEMM without pointer lists (A,
 * B and C: 3 spans), a tensor permutation that only converts (its A),
 * CSR -> CSC (the CSR's offsets, indices and values: 3) and CSR -> BSR (the
 * CSR's three and the BSR's block-row offsets: 4). */
int trn_op_read_spans(const struct trn_op_desc *op, trn_span *out, int max);

/* A GEMM's A, B and C (out[0 .. 2], whole batch) without pointer lists:
 * 3, else -1. What trn_op_read_spans gives for a GEMM. */
struct trn_gemm_desc;
int trn_gemm_spans(const struct trn_gemm_desc *g, trn_span out[3]);

/* What op's conversion stage (ops/convert_stage.h) reads: op(A) and op(B)
 * of a GEMM in a precision mode, into out (at most max spans): the count,
 * or -1 when op has no such stage or its reads are not known here. */
int trn_convert_stage_read_spans(const struct trn_op_desc *op, trn_span *out, int max);

#endif
