/*
 * gemm_neuron.h — GEMMs on a NeuronCore: which GEMMs the gemm kernel
 * program runs (program.h), how one is cut (parts on several cores,
 * executions pipelined on one), and running one: its operands packed into
 * the program's layouts in host memory, moved to the core's memory by DMA
 * (nrt_tensor_write), the program executed, the result moved back and
 * unpacked into C.
 */
#ifndef TRN_KERNELS_NEURON_GEMM_NEURON_H
#define TRN_KERNELS_NEURON_GEMM_NEURON_H

#include "kernels/neuron/nc_runtime.h"
#include "kernels/neuron/program.h"
#include "ops/blas.h"

/* Whether the gemm program runs d, and its parameters: S and C GEMMs
 * (single, strided or pointer-array batches) in FP32, BF16 (without
 * stochastic rounding) and BF16x3 modes that read A and B. Everything else
 * (FP64, the other modes, alpha = 0 or k = 0) stays on the CPU backend. */
int trn_ngemm_program(const trn_gemm_desc *d, trn_nprog_gemm *g);

/* Turns g (trn_ngemm_program's, for d) into the program that reads d's
 * operands as they lie in memory (program.h, layout=cm), when it can:
 * real FP32, no pointer lists, and a batch's matrices back to back (each
 * stride the matrix's columns times its leading dimension). The host then
 * packs nothing: A, B and C move as they are and the core transposes.
 * Returns 1 when g was changed, else 0 (g stays packed). */
int trn_ngemm_colmajor(const trn_gemm_desc *d, trn_nprog_gemm *g);

/* A GEMM too big for one NeuronCore to be worth the others' idling is
 * split over up to `cores` cores, each running the same program on its own
 * part: whole matrices of a batch, or blocks of C's columns of a single
 * GEMM. Every part has the program's shape; the last one is padded with
 * zeros (the padding's results are never read back), so one NEFF serves
 * all parts. Each element of C is computed by one core exactly as the
 * unsplit program computes it (same products, same accumulation order),
 * so the result does not depend on the split.
 *
 * Given the whole GEMM's program g, returns the number of parts (1: not
 * split, g unchanged) and turns g into the program of one part. A part must
 * carry at least min_flop flops (0: never split) and, for a column split,
 * TRN_NGEMM_SPLIT_MIN_COLS columns. Depends on nothing but its arguments,
 * so every process computes the same split. */
#define TRN_NGEMM_SPLIT_MIN_COLS 128
int trn_ngemm_split(trn_nprog_gemm *g, int cores, uint64_t min_flop);

/* What part `part` of `parts` (trn_ngemm_split) computes: matrices
 * [batch0, batch0 + nbatch) of the batch, and of each, columns
 * [col0, col0 + ncols) of C. */
typedef struct trn_ngemm_part {
    size_t batch0, nbatch;
    int col0, ncols;
} trn_ngemm_part;
trn_ngemm_part trn_ngemm_part_of(const trn_gemm_desc *d, const trn_nprog_gemm *g, int part,
                                 int parts);

/* A part's batch runs as several executions of a program for fewer
 * matrices when its operands are large enough that moving them takes as
 * long as a dispatch: then execution j+1's inputs move by DMA while j runs
 * (trn_ngemm_run). Given a part's program g, returns the number of
 * executions (1: g unchanged) and turns g into the program of one: each
 * moves at least TRN_NGEMM_PIPELINE_MIN_BYTES of operands, the last padded
 * like the last part of a split. A function of g alone. */
#define TRN_NGEMM_PIPELINE_MIN_BYTES (1u << 20)
int trn_ngemm_pipeline(trn_nprog_gemm *g);

/* The GEMM that runs next on this core, with the same program, as one
 * execution: part `part` of d (a run-next hint, kernels/backend.h). */
typedef struct trn_ngemm_next {
    const trn_gemm_desc *d;
    trn_ngemm_part part;
} trn_ngemm_next;

/* Runs part p of d with program g (loaded in ld on this thread's core),
 * g->batch matrices an execution: with one execution, inputs in, execute,
 * result out; with several, pipelined over two tensor sets through rt's DMA
 * queue, when the core's memory holds the second set (else one after the
 * other). An input already in a tensor set and current by rt->wclock is not
 * moved again (nc_runtime.h, trn_nc_held); one execution runs on the set
 * that holds most of its inputs.
 *
 * next (NULL: none), with rt->wclock set, one execution and at least
 * TRN_NGEMM_PIPELINE_MIN_BYTES of op(A) and op(B) a program: while this
 * execution runs, next's inputs move on the DMA queue into the program's
 * other tensor set, where next's own run finds them current (or moves them
 * again if they changed in between). Returns TRN_KSTATUS_OK, NO_MEMORY
 * (host staging), or FAILED with msg. */
trn_kstatus trn_ngemm_run(trn_nc_runtime *rt, trn_nc_loaded *ld, const trn_gemm_desc *d,
                          const trn_nprog_gemm *g, const trn_ngemm_part *p,
                          const trn_ngemm_next *next, char *msg, size_t msglen);

/* Runs GEMMs d[0 .. s->nodes) as the one execution of the gemm_seq program
 * s (program.h; gemm_seq.h chose it) loaded as ld: moves the operands whose
 * source is an input and every node's alpha and beta, executes, and moves
 * every node's result back into its C, in node order. Tensor set 0 only;
 * nothing is left resident. Returns TRN_KSTATUS_OK, NO_MEMORY (host
 * staging), or FAILED with msg. */
struct trn_nprog_seq;
trn_kstatus trn_ngemm_seq_run(trn_nc_runtime *rt, trn_nc_loaded *ld, const trn_gemm_desc *const *d,
                              const struct trn_nprog_seq *s, char *msg, size_t msglen);

/* Waits for the move trn_ngemm_run started ahead for its next op, if it
 * has not ended, and frees it. trn_ngemm_run calls it first; call it
 * before next's memory may go (the end of an executor's request). */
void trn_ngemm_ahead_wait(trn_nc_runtime *rt);

#endif
