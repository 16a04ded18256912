/*
 * program.h — kernel programs: what runs on a NeuronCore, and the contract
 * between the backend, the NKI kernel sources (kernels/neuron/nki/), the
 * compiler and the simulator (tests/nrtsim/).
 *
 * A kernel program is an NKI kernel function of a source file with its
 * parameters; compiled for a target generation it is one NEFF. The
 * parameters are a text of space-separated name=value pairs in a fixed
 * order, which is also the NEFF cache's key material.
 *
 * The GEMM program ("gemm" in nki/gemm.py), for one strided batch:
 *   params   "dtype=f32|c32 mode=fp32|bf16|bf16x3 m=M n=N k=K batch=B"
 *   inputs   at   float32 [B][P][K][M]   op(A) transposed, row-major
 *            b    float32 [B][P][K][N]   op(B), row-major
 *            c    float32 [B][P][M][N]   C, row-major (read when beta != 0)
 *            scal float32 [2P]           alpha, beta (f32) or
 *                                        alpha.re, alpha.im, beta.re, beta.im
 *   output   d    float32 [B][P][M][N]   alpha op(A) op(B) + beta C
 *   P = 1 for f32; 2 for c32 (real plane, then imaginary plane).
 *
 * The same program in the matrices' own layout ("gemm" with layout=cm),
 * for real FP32 only: the tensors are the column-major matrices, A and B
 * untransposed, each column its matrix's rows (leading dimension = rows).
 * A matrix whose leading dimension is its rows lies in memory exactly as
 * its tensor does, so the host moves its bytes as they are; the core
 * transposes on chip.
 *   params   "dtype=f32 mode=... m=M n=N k=K batch=B layout=cm ta=n|t
 *            tb=n|t"
 *   inputs   a    float32 [B][1][CA][RA]   A column by column: CA x RA
 *                                          is K x M (ta=n, A is M×K) or
 *                                          M x K (ta=t, A is K×M)
 *            b    float32 [B][1][CB][RB]   B: N x K (tb=n, B is K×N) or
 *                                          K x N (tb=t, B is N×K)
 *            c    float32 [B][1][N][M]     C (read when beta != 0)
 *            scal float32 [2]              alpha, beta
 *   output   d    float32 [B][1][N][M]     the result, column-major
 * Each element of d is formed from the same products as the packed
 * program's, accumulated over k in FP32, within the same bounds (the
 * simulator gives bitwise the packed program's elements).
 *
 * Products by mode: fp32 — FP32 inputs; bf16 — inputs rounded to bfloat16
 * (nearest, ties to even); bf16x3 — x = hi + lo with hi = bf16(x),
 * lo = bf16(x - hi), and hi·hi + hi·lo + lo·hi. Accumulation is FP32 (the
 * Tensor Engine's PSUM) in every mode; alpha and beta are applied in FP32.
 *
 * The compiler (--neuron-cc PATH) is run as
 *   PATH --version                       prints one line: its version
 *   PATH compile --source FILE --kernel NAME --params "TEXT"
 *                --target trn1|trn2 --output OUT.neff
 * and exits 0 with OUT.neff written, or non-zero with the reason on stderr.
 * On a Trainium host that is scripts/trnsci-nki-cc (over neuronxcc); in the
 * tests it is tests/nrtsim's nrtsim-cc.
 */
#ifndef TRN_KERNELS_NEURON_PROGRAM_H
#define TRN_KERNELS_NEURON_PROGRAM_H

#include <stddef.h>
#include <stdint.h>

typedef enum trn_nprog_mode {
    TRN_NPROG_FP32 = 0,
    TRN_NPROG_BF16 = 1,
    TRN_NPROG_BF16X3 = 2,
} trn_nprog_mode;

typedef enum trn_nprog_layout {
    TRN_NPROG_PACKED = 0,   /* at, b, c, d as the program lays them out */
    TRN_NPROG_COLMAJOR = 1, /* a, b, c as they lie in memory (layout=cm) */
} trn_nprog_layout;

/* A GEMM program's parameters. */
typedef struct trn_nprog_gemm {
    int complex; /* 0: f32, 1: c32 */
    trn_nprog_mode mode;
    int m, n, k;
    int batch; /* >= 1 */
    trn_nprog_layout layout;
    int ta, tb; /* COLMAJOR: 1 when op(A) = A^T (op(B) = B^T), else 0 */
} trn_nprog_gemm;

/* Longest parameter text, with its NUL. */
#define TRN_NPROG_PARAMS_LEN 192

/* The parameter text of g ("dtype=f32 mode=fp32 m=64 n=64 k=64 batch=1").
 * Returns its length, or -1 when it does not fit. */
int trn_nprog_gemm_format(const trn_nprog_gemm *g, char *buf, size_t len);

/* Parses a parameter text made by trn_nprog_gemm_format. Returns 0, or -1
 * with err naming what is wrong (dimensions must be >= 1 and fit in int;
 * every tensor must be under 2^40 bytes). */
int trn_nprog_gemm_parse(const char *text, trn_nprog_gemm *g, char *err, size_t errlen);

/* Bytes of each tensor of g: at (a for COLMAJOR), b, c, scal and d. */
typedef struct trn_nprog_gemm_bytes {
    uint64_t at, b, c, scal, d;
} trn_nprog_gemm_bytes;

/* COLMAJOR: the rows and columns of the stored A and B (before op). */
void trn_nprog_gemm_stored(const trn_nprog_gemm *g, int which, int *rows, int *cols);
trn_nprog_gemm_bytes trn_nprog_gemm_sizes(const trn_nprog_gemm *g);

/*
 * The GEMM sequence program ("gemm_seq" in nki/gemm.py): J GEMMs of one
 * dtype and mode run in order in one execution, as the nodes of a graph
 * segment (docs/neuron.md, "An instantiated graph as one NEFF").
 *   params   "dtype=f32|c32 mode=fp32|bf16|bf16x3 nodes=J" and, for each
 *            node j in order, " gJ=MxNxKxB:AT,B,C" (2 <= J <= 8)
 *            AT, B and C say where node j's op(A)^T, op(B) and C come from:
 *            "in", an input tensor of the program, or "dI", the result of
 *            an earlier node I, which must then have the operand's shape
 *            and batch: dI [B][P][M_I][N_I] serves as at when M_I = K and
 *            N_I = M, as b when M_I = K and N_I = N, as c when M_I = M and
 *            N_I = N. So Y = W2 (W1 X) is g1=...:in,d0,in.
 *   inputs   atJ, bJ, cJ  float32, the gemm program's shapes, for every
 *                         operand that is "in"
 *            scal         float32 [J][2P]   node j's alpha and beta
 *   outputs  dJ           float32 [B][P][M][N]   every node's result
 * Each node computes exactly what the gemm program computes for it (the
 * same products in the same order), so a sequence's results are bitwise
 * those of its nodes run one by one. An earlier result read by a later
 * node is read as the node wrote it, never from host memory.
 */
#define TRN_NPROG_SEQ_MAX 8
#define TRN_NPROG_SEQ_IN (-1)
typedef struct trn_nprog_seq {
    int complex;
    trn_nprog_mode mode;
    int nodes;
    trn_nprog_gemm node[TRN_NPROG_SEQ_MAX]; /* complex and mode: the sequence's */
    int src[TRN_NPROG_SEQ_MAX][3];          /* at, b, c: TRN_NPROG_SEQ_IN or a node */
} trn_nprog_seq;

/* Longest sequence parameter text, with its NUL. */
#define TRN_NPROG_SEQ_PARAMS_LEN 384

/* The parameter text of s. Returns its length, or -1 when it does not fit
 * or s is not a valid sequence (as trn_nprog_seq_parse checks). */
int trn_nprog_seq_format(const trn_nprog_seq *s, char *buf, size_t len);

/* Parses a sequence's parameter text. Returns 0, or -1 with err naming
 * what is wrong: the node count, a dimension, a source that is not an
 * earlier node, or whose shape or batch does not fit its use. */
int trn_nprog_seq_parse(const char *text, trn_nprog_seq *s, char *err, size_t errlen);

#endif
