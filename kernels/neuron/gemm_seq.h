/*
 * gemm_seq.h — which GEMMs run together as one gemm_seq program
 * (program.h), and where each node's operands come from.
 *
 * A graph segment's nodes run in order. As one program they run in one
 * execution: their inputs are all moved before it, their results all moved
 * back after it, in node order. That is the same as running them one by
 * one only if no node reads, from host memory, what an earlier node of
 * the sequence writes. So every operand a node reads that overlaps an
 * earlier node's C must be exactly the result of the latest such node (the
 * same matrix: pointer, leading dimension, shape, batch stride), and is
 * then read from that node's result in the core's memory (a source "dI");
 * an operand that overlaps none is an input. Anything else, and any node
 * that would not run as one execution of one program on one core, keeps
 * the segment running node by node.
 */
#ifndef TRN_KERNELS_NEURON_GEMM_SEQ_H
#define TRN_KERNELS_NEURON_GEMM_SEQ_H

#include <stdint.h>

#include "kernels/neuron/program.h"
#include "ops/blas.h"

/* Whether GEMMs d[0 .. n) (in order) run as one gemm_seq program on a
 * daemon with `cores` NeuronCores that splits GEMMs of split_min_flop or
 * more (trn_ngemm_split), and its parameters in *out. Each must have a
 * gemm program (trn_ngemm_program) of the sequence's dtype and mode that
 * runs as one execution of one part, with its alpha and beta in the
 * descriptor (not device pointers) and no pointer lists; 2 <= n <=
 * TRN_NPROG_SEQ_MAX; and the operands must satisfy the rule above. A pure
 * function of the descriptors: nothing is dereferenced. */
int trn_ngemm_seq_of(const trn_gemm_desc *const *d, int n, int cores, uint64_t split_min_flop,
                     trn_nprog_seq *out);

#endif
