/*
 * gemm_seq.c — GEMMs as one gemm_seq program (gemm_seq.h).
 */
#include "kernels/neuron/gemm_seq.h"

#include <string.h>

#include "kernels/neuron/gemm_neuron.h"
#include "ops/span.h"

enum { OP_A, OP_B, OP_C };

/* Whether node j's program runs alone as one execution of one part. */
static int one_execution(const trn_gemm_desc *d, int cores, uint64_t split_min_flop,
                         trn_nprog_gemm *g) {
    if (!trn_ngemm_program(d, g) || d->a_list || d->alpha_ptr || d->beta_ptr ||
        d->split_stage != TRN_GEMM_SPLIT_INLINE)
        return 0;
    trn_nprog_gemm part = *g;
    if (trn_ngemm_split(&part, cores, split_min_flop) != 1)
        return 0;
    return trn_ngemm_pipeline(&part) == 1;
}

/* Whether the batch strides of two matrices of batch count `batch` agree. */
static int same_stride(size_t batch, size_t s1, size_t s2) {
    return batch <= 1 || s1 == s2;
}

/* Whether operand w of node j is exactly node i's result C_i: the same
 * matrix in the layout the program's tensor has (at = d_i when op(A) is
 * C_i transposed; b = d_i when op(B) is C_i; c = d_i when C is C_i). */
static int exact_result(const trn_gemm_desc *i, const trn_gemm_desc *j, int w) {
    const size_t batch = i->batch > 1 ? i->batch : 1;
    if (batch != (j->batch > 1 ? j->batch : 1))
        return 0;
    /* A real matrix's conjugate transpose is its transpose. */
    const int transposed =
        j->transa == TRN_TRANS_T || (j->transa == TRN_TRANS_C && j->type == TRN_DTYPE_R32F);
    switch (w) {
    case OP_A:
        return j->a == i->c && transposed && j->lda == i->ldc && j->k == i->m && j->m == i->n &&
               same_stride(batch, j->stride_a, i->stride_c);
    case OP_B:
        return j->b == i->c && j->transb == TRN_TRANS_N && j->ldb == i->ldc && j->k == i->m &&
               j->n == i->n && same_stride(batch, j->stride_b, i->stride_c);
    default:
        return j->c == i->c && j->ldc == i->ldc && j->m == i->m && j->n == i->n &&
               same_stride(batch, j->stride_c, i->stride_c);
    }
}

/* Whether C is read: beta is not 0 (an exact 0 leaves C unread, as BLAS). */
static int reads_c(const trn_gemm_desc *d) {
    return d->beta.re != 0 || d->beta.im != 0;
}

int trn_ngemm_seq_of(const trn_gemm_desc *const *d, int n, int cores, uint64_t split_min_flop,
                     trn_nprog_seq *out) {
    memset(out, 0, sizeof(*out));
    if (n < 2 || n > TRN_NPROG_SEQ_MAX)
        return 0;
    trn_span sp[TRN_NPROG_SEQ_MAX][3];
    for (int j = 0; j < n; j++) {
        trn_nprog_gemm *g = &out->node[j];
        if (!one_execution(d[j], cores, split_min_flop, g) || trn_gemm_spans(d[j], sp[j]) != 3)
            return 0;
        if (j > 0 && (g->complex != out->node[0].complex || g->mode != out->node[0].mode))
            return 0;
    }
    out->complex = out->node[0].complex;
    out->mode = out->node[0].mode;
    out->nodes = n;
    for (int j = 0; j < n; j++)
        for (int w = 0; w < 3; w++) {
            out->src[j][w] = TRN_NPROG_SEQ_IN;
            if (w == OP_C && !reads_c(d[j]))
                continue; /* not read: its bytes never reach the result */
            int latest = -1;
            for (int i = 0; i < j; i++)
                if (trn_spans_overlap(&sp[j][w], 1, &sp[i][OP_C], 1))
                    latest = i;
            if (latest < 0)
                continue;
            if (!exact_result(d[latest], d[j], w))
                return 0;
            out->src[j][w] = latest;
        }
    return 1;
}
