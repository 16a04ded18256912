/*
 * tensor_plan.h — how a tensor contraction maps to GEMM, and its plan-cache
 * key. Backend-independent: the daemon's validator checks specs with it and
 * the CPU backend prepares plans with it.
 *
 * A contraction's modes fall into four groups: batch (in A, B and D), rows
 * (in A and D), columns (in B and D) and summed (in A and B). Per batch
 * element, D[rows, cols] = alpha X[rows, sum] Y[sum, cols] + beta C, one
 * GEMM. The plan orders each group's modes so that operands can be used in
 * place as (possibly transposed) column-major matrices with a leading
 * dimension; an operand whose group does not fuse to one stride is packed
 * into a contiguous matrix by the kernel instead (transpose-GEMM-transpose).
 * Rows or columns whose modes do not fuse lose their slowest modes to the
 * batch loop (more, smaller GEMMs, all in place) while the GEMM stays at
 * least 16 wide. When D's rows are not its fastest modes but its columns
 * are, the plan swaps the roles of A and B and computes D transposed
 * (D^T = B^T A^T), so that D is still written in place: of the two role
 * assignments the plan takes the one that copies fewer elements. Modes of
 * extent 1 take part in nothing.
 */
#ifndef TRN_KERNELS_TENSOR_PLAN_H
#define TRN_KERNELS_TENSOR_PLAN_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "ops/op.h"

/* Operands of the GEMM mapping: X (left), Y (right), D (the output). */
enum { TRN_TP_X = 0, TRN_TP_Y = 1, TRN_TP_D = 2 };

/* The modes of one group, in the plan's order (fastest first), with their
 * extents and each operand's strides (0 for an operand without the group). */
typedef struct trn_tensor_group {
    int n;
    int64_t extent[TRN_TENSOR_MAX_MODES];
    int64_t stride[3][TRN_TENSOR_MAX_MODES];
    int64_t total; /* product of the extents (1 when empty) */
} trn_tensor_group;

/* How an operand is used: in place as a column-major matrix (trans N or T,
 * leading dimension ld), or packed by the kernel. */
typedef struct trn_tensor_view {
    int packed;
    trn_trans trans;
    int ld;
} trn_tensor_view;

/* Every backend's contraction plan is this mapping (the plan cache's
 * trn_plan_entry_plan). It starts with TRN_TENSOR_PLAN_MAGIC, which no FFT
 * plan starts with (their first word is an FFT type, 1 .. 6), so the
 * backend's plan hooks tell the families apart. */
#define TRN_TENSOR_PLAN_MAGIC 0x544e5350u
typedef struct trn_tensor_plan {
    uint32_t magic;
    trn_tensor_contract_spec spec;
    int swap; /* X = B, Y = A, D computed transposed */
    trn_tensor_group rows, cols, sum, batch;
    trn_tensor_view x, y, d;
    int m, n, k;    /* GEMM sizes */
    int64_t nbatch; /* batch.total */
    double flops;   /* 2 m n k nbatch */
} trn_tensor_plan;

/* Whether plan (a backend's plan) is a trn_tensor_plan. */
static inline int trn_tensor_plan_is(const void *plan) {
    uint32_t w;
    memcpy(&w, plan, sizeof(w));
    return w == TRN_TENSOR_PLAN_MAGIC;
}

/* Checks a contraction spec (rules in op.h's trn_tensor_contract_spec) and
 * relabels its modes canonically. Returns 0, or -1 (invalid argument) / -2
 * (valid but beyond what the backend does) with err naming the rule. */
int trn_tensor_spec_check(trn_tensor_contract_spec *s, char *err, size_t errlen);

/* The mapping of a checked spec; 0, or -2 with err when a GEMM size or a
 * packed operand would exceed what the kernels take. */
int trn_tensor_plan_make(const trn_tensor_contract_spec *s, trn_tensor_plan *p, char *err,
                         size_t errlen);

/* The cache key of a checked spec ("tensor contract R_32F 32F A=a4b8 B=..."):
 * returns snprintf's count (>= len: it did not fit). */
int trn_tensor_spec_format(const trn_tensor_contract_spec *s, char *buf, size_t len);
/* Parses a key made by trn_tensor_spec_format back (and checks it). */
int trn_tensor_spec_parse(const char *key, trn_tensor_contract_spec *s, char *err, size_t errlen);

/* Elements an operand of layout l spans: 1 + sum (extent - 1) stride, or 0
 * on overflow (> 2^62). */
uint64_t trn_tensor_span(const trn_tensor_layout *l);
/* 0 when no two elements of l share an address. */
int trn_tensor_overlaps(const trn_tensor_layout *l);

/* A trinary contraction E = alpha A B C + beta D (D has E's layout) as two
 * binary ones: first the pair X, Y of A, B, C into the intermediate T
 * (scratch, packed), then T with the third operand Z into E. T keeps the
 * modes of X and Y that Z or E has (E's first, in E's order, then Z's).
 * Of the three pairings the plan takes the one whose two contractions
 * cost the fewest flops (2 x the product of the extents of the modes each
 * touches); ties go to (A B) C, then (A C) B, then (B C) A. The order
 * depends only on the extents, so every process and core count makes the
 * same plan. For 16-bit data both steps are planned as R_32F (the kernel
 * widens the operands exactly and rounds E once). */
typedef struct trn_tensor_trinary_plan {
    uint32_t magic;               /* TRN_TENSOR_TRINARY_MAGIC */
    trn_dtype type;               /* of the data: R32F, R64F, C32F, C64F, R16F or R16BF */
    int last;                     /* the operand contracted second: 0 A, 1 B, 2 C */
    trn_tensor_layout a, b, c, e; /* as given (labels canonical to the plan) */
    trn_tensor_layout t;          /* the intermediate, packed */
    uint64_t t_elements;
    double flops; /* both steps: 2 (or 8, complex) per multiply-add */
    trn_tensor_plan first, second;
} trn_tensor_trinary_plan;
#define TRN_TENSOR_TRINARY_MAGIC 0x544e3350u

/* Checks a trinary contraction (every mode of E in A, B or C; every mode
 * of A, B, C in at least two of A, B, C, E unless of extent 1; a label's
 * extents equal wherever it appears; E's elements distinct) and makes its
 * plan. conj[i]: operand i (A, B, C) conjugated (complex only). Returns 0,
 * or -1 (invalid argument) / -2 (beyond what the backend does) with err
 * naming the rule. */
int trn_tensor_trinary_make(trn_dtype type, trn_compute compute, const trn_tensor_layout *a,
                            const trn_tensor_layout *b, const trn_tensor_layout *c,
                            const trn_tensor_layout *e, const int conj[3],
                            trn_tensor_trinary_plan *p, char *err, size_t errlen);

#endif
