/*
 * op.c — backend-independent facts about op descriptors.
 */
#include "kernels/op.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>

void trn_kmsg_init(trn_kmsg *m) {
    atomic_init(&m->busy, 0);
    m->set = 0;
    m->bad_input = 0;
    m->rank = 0;
    m->text[0] = '\0';
}

void trn_kmsg_post(trn_kmsg *m, uint64_t rank, int bad_input, const char *fmt, ...) {
    if (!m)
        return;
    char text[TRN_KMSG_LEN];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof(text), fmt, ap);
    va_end(ap);
    /* A spin lock: only failing shards of one op ever contend, briefly. */
    while (atomic_exchange_explicit(&m->busy, 1, memory_order_acquire))
        ;
    if (!m->set || rank < m->rank) {
        m->set = 1;
        m->rank = rank;
        m->bad_input = bad_input;
        snprintf(m->text, sizeof(m->text), "%s", text);
    }
    atomic_store_explicit(&m->busy, 0, memory_order_release);
}

trn_sp_split trn_spmm_split(const trn_spmm_desc *d, int64_t *parts) {
    const trn_sp_mat *a = &d->a;
    if (d->alpha == 0.0) { /* C = beta C: any rows */
        *parts = d->c.rows;
        return TRN_SP_SPLIT_ROWS;
    }
    const int n = d->op_a == TRN_TRANS_N;
    if ((a->format == TRN_SP_CSR && n) || (a->format == TRN_SP_CSC && !n) ||
        (a->format == TRN_SP_BSR && n)) {
        *parts = a->format == TRN_SP_CSC ? a->cols : a->brows;
        return TRN_SP_SPLIT_ROWS;
    }
    if (a->format == TRN_SP_BSR) { /* op T: BLAS calls, whose bits depend on the width */
        *parts = 1;
        return TRN_SP_SPLIT_NONE;
    }
    *parts = d->c.cols;
    return TRN_SP_SPLIT_COLS;
}

trn_sp_split trn_spconvert_split(const trn_spconvert_desc *d, int64_t *parts) {
    switch (d->fn) {
    case TRN_SPC_CSR_TO_COO: *parts = d->src.rows; return TRN_SP_SPLIT_ROWS;
    case TRN_SPC_BSR_TO_CSR: *parts = d->src.brows; return TRN_SP_SPLIT_ROWS;
    case TRN_SPC_CSR_TO_BSR: *parts = d->dst.brows; return TRN_SP_SPLIT_ROWS;
    case TRN_SPC_DENSE_TO_SPARSE:
        *parts = d->dst.format == TRN_SP_CSC ? d->dst.cols : d->dst.rows;
        return TRN_SP_SPLIT_ROWS;
    default: *parts = 1; return TRN_SP_SPLIT_NONE;
    }
}

int trn_sparse_split(const trn_op_desc *d, trn_sp_split *split, int64_t *parts) {
    switch (d->kind) {
    case TRN_OP_SPMV:
    case TRN_OP_SPMM: *split = trn_spmm_split(&d->u.spmm, parts); return 0;
    case TRN_OP_SPCONVERT: *split = trn_spconvert_split(&d->u.spconvert, parts); return 0;
    case TRN_OP_SPGEMM:
        *parts = d->u.spgemm.fill ? d->u.spgemm.a.rows : 1;
        *split = d->u.spgemm.fill ? TRN_SP_SPLIT_ROWS : TRN_SP_SPLIT_NONE;
        return 0;
    case TRN_OP_SDDMM:
        *parts = d->u.sddmm.c.rows;
        *split = TRN_SP_SPLIT_ROWS;
        return 0;
    case TRN_OP_SPATTN:
        *parts = d->u.attn.pattern.brows * d->u.attn.q.batch;
        *split = TRN_SP_SPLIT_ROWS;
        return 0;
    case TRN_OP_SCHWARZ:
        *parts = 1;
        *split = TRN_SP_SPLIT_NONE;
        return 0;
    default: return -1;
    }
}

double trn_op_cost(const trn_op_desc *op) {
    switch (op->kind) {
    case TRN_OP_MEMSET: return (double)op->u.memset.bytes;
    case TRN_OP_COPY: return 2.0 * (double)op->u.copy.bytes;
    case TRN_OP_GEMM: {
        const trn_gemm_desc *g = &op->u.gemm;
        /* A complex multiply-add is four real multiply-adds. */
        const double per = (g->type == TRN_DTYPE_C32F || g->type == TRN_DTYPE_C64F) ? 8.0 : 2.0;
        return per * (double)g->m * (double)g->n * (double)g->k + (double)g->m * (double)g->n;
    }
    case TRN_OP_BLAS1: {
        /* Flops: a real multiply-add is 2, a complex one 8; copies and swaps
         * count the bytes they move. */
        const trn_blas1_desc *b = &op->u.blas1;
        const int cx = b->type == TRN_DTYPE_C32F || b->type == TRN_DTYPE_C64F;
        const double n = (double)b->n;
        switch (b->fn) {
        case TRN_BLAS1_COPY: return 2.0 * n * (double)trn_dtype_size(b->type);
        case TRN_BLAS1_SWAP: return 4.0 * n * (double)trn_dtype_size(b->type);
        case TRN_BLAS1_ROT: return (cx ? 16.0 : 6.0) * n;
        default: return (cx ? 8.0 : 2.0) * n;
        }
    }
    case TRN_OP_FFT: {
        /* The usual 5 N log2 N flops of a complex transform of N points; a
         * real transform is half of that. */
        const trn_fft_desc *f = &op->u.fft;
        const int complex = f->type == TRN_FFT_C2C || f->type == TRN_FFT_Z2Z;
        const double n = f->points > 1.0 ? f->points : 2.0;
        return (complex ? 5.0 : 2.5) * n * log2(n) * (double)f->batch;
    }
    case TRN_OP_RAND: {
        /* Bytes written, weighted by time per byte: on one core here Philox
         * makes 1.1-1.4 GB/s of raw words or uniforms, but Box-Muller normals
         * only 0.10-0.15 GB/s (log, sqrt, sin, cos per pair), so a normal
         * byte counts 8. A Poisson byte took 2.4x (lambda 1e-3) to 25x
         * (lambda 1e8) the time of a raw-word byte (a table binary search
         * per element, deeper and less cache-friendly as lambda grows;
         * x6 at 7.5, x8 at 100, x14 at 1e4, x20 at 1e6), so it counts 16.
         * Sobol ops (one XOR per element) made raw words and uniforms at
         * 0.85-1.7 GB/s on one core (float uniforms 2-3.7 GB/s since their
         * loop has no per-element switch), weight 1, but their normals, an inverse
         * CDF per element (log, sqrt, exp and erf or erfc), only 0.07 (F32)
         * to 0.15 (F64) GB/s, so a Sobol normal byte counts 12. The
         * extensions: an exponential (one log per element) counts 4; gamma
         * and truncated normal (an inverse normal CDF, logs, and a Philox
         * call per attempt) 16; beta (two gammas) 32; a Latin hypercube
         * element (6 Philox calls per Feistel pass, about two passes) 16. */
        const trn_rand_dist d = op->u.rand.dist;
        const int normal = d == TRN_RAND_NORMAL_F32 || d == TRN_RAND_NORMAL_F64 ||
                           d == TRN_RAND_LOGNORMAL_F32 || d == TRN_RAND_LOGNORMAL_F64;
        const double normal_weight = op->u.rand.gen == TRN_RAND_PHILOX ? 8.0 : 12.0;
        double weight = normal ? normal_weight : d == TRN_RAND_POISSON ? 16.0 : 1.0;
        switch (d) {
        case TRN_RAND_EXPONENTIAL_F32:
        case TRN_RAND_EXPONENTIAL_F64: weight = 4.0; break;
        case TRN_RAND_GAMMA_F32:
        case TRN_RAND_GAMMA_F64:
        case TRN_RAND_TRUNCNORMAL_F32:
        case TRN_RAND_TRUNCNORMAL_F64:
        case TRN_RAND_LHS_F32:
        case TRN_RAND_LHS_F64: weight = 16.0; break;
        case TRN_RAND_BETA_F32:
        case TRN_RAND_BETA_F64: weight = 32.0; break;
        default: break;
        }
        return (double)op->u.rand.n * (double)trn_rand_element_size(d) * weight;
    }
    case TRN_OP_SPMV:
    case TRN_OP_SPMM: {
        /* A multiply-add per stored element and right-hand side, plus the
         * alpha/beta update of C. */
        const trn_spmm_desc *s = &op->u.spmm;
        const double stored = (double)s->a.nnz * (double)s->a.rb * (double)s->a.cb;
        const double n = (double)s->c.cols, m = (double)s->c.rows;
        return (s->alpha != 0.0 ? 2.0 * stored * n : 0.0) + 2.0 * m * n;
    }
    case TRN_OP_SPGEMM: {
        /* A multiply-add per product a_ik b_kj: A's entries times B's mean
         * row length (the structure is not read here). */
        const trn_spgemm_desc *g = &op->u.spgemm;
        const double per_row = g->b.rows > 0 ? (double)g->b.nnz / (double)g->b.rows : 0.0;
        return 2.0 * (double)g->a.nnz * per_row + (double)g->a.rows;
    }
    case TRN_OP_SDDMM: {
        const trn_sddmm_desc *s = &op->u.sddmm;
        return 2.0 * (double)s->c.nnz * (double)s->a.cols + 2.0 * (double)s->c.nnz;
    }
    case TRN_OP_SPATTN: {
        /* Two products per stored block (Q K^T and P V) and an exp per
         * score, counted as 10 flops. */
        const trn_attn_desc *a = &op->u.attn;
        const double elems = (double)a->pattern.nnz * (double)a->pattern.rb *
                             (double)a->pattern.cb * (double)a->q.batch;
        return elems * (2.0 * (double)a->q.cols + 2.0 * (double)a->v.cols + 10.0);
    }
    case TRN_OP_SCHWARZ: return 2.0 * (double)op->u.schwarz.diag.rows;
    case TRN_OP_SPCONVERT: {
        /* Bytes touched: every stored element read and written with its
         * index (16 bytes at most), every dense element once, offsets. */
        const trn_spconvert_desc *c = &op->u.spconvert;
        const trn_sp_mat *big =
            c->src.nnz * c->src.rb * c->src.cb >= c->dst.nnz * c->dst.rb * c->dst.cb ? &c->src
                                                                                     : &c->dst;
        return 32.0 * (double)big->nnz * (double)big->rb * (double)big->cb +
               (double)c->dense.rows * (double)c->dense.cols *
                   (double)trn_dtype_size(c->dense.type) +
               16.0 * (double)(c->src.rows + c->dst.rows);
    }
    }
    return 0.0;
}
