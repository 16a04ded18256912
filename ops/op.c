/*
 * op.c — backend-independent facts about op descriptors.
 */
#include "ops/op.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>

/* ---- the kinds ---------------------------------------------------------------------- */

static const trn_op_info kinds[] = {
#define ROW(kind, value, stem, field, label, title, family, engine)                                \
    {TRN_OP_##kind, label, title, family, TRN_ENGINE_##engine},
    TRN_OP_KINDS(ROW)
#undef ROW
};
_Static_assert(sizeof(kinds) / sizeof(kinds[0]) == TRN_OP_KIND_COUNT, "one row per kind");

const trn_op_info *trn_op_info_at(int i) {
    return i >= 0 && i < TRN_OP_KIND_COUNT ? &kinds[i] : NULL;
}

const trn_op_info *trn_op_info_of(int kind) {
    for (int i = 0; i < TRN_OP_KIND_COUNT; i++)
        if ((int)kinds[i].kind == kind)
            return &kinds[i];
    return NULL;
}

const char *trn_op_title(const trn_op_desc *op) {
    const char *solver = trn_solver_op_name(op);
    if (solver)
        return solver;
    const trn_op_info *k = trn_op_info_of(op->kind);
    return k ? k->title : "op";
}

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

trn_kstatus trn_kmsg_no_memory(trn_kmsg *m, int shard, size_t bytes, const char *what, ...) {
    char w[TRN_KMSG_LEN];
    va_list ap;
    va_start(ap, what);
    vsnprintf(w, sizeof(w), what, ap);
    va_end(ap);
    trn_kmsg_post(m, TRN_KMSG_RANK_NO_MEMORY + (uint64_t)(shard > 0 ? shard : 0), 0,
                  "the daemon is out of memory for its workspace: %zu bytes for %s could not be "
                  "allocated",
                  bytes, w);
    return TRN_KSTATUS_NO_MEMORY;
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

/* Output tiles of Level 3 ops (op.h). Each tile is one library call (or a
 * fixed pair of calls), which packs the op's other operand again: measured
 * with OpenBLAS 0.3.21 on one core here (n = 2048 DTRSM/DTRMM from the
 * left), 512-wide tiles cost 0.5-1.5 % over one call, 256-wide ones 3-5 %,
 * 128-wide ones 10 %. So tiles are at least TILE_MIN wide, and there are at
 * most TILE_MAX_COUNT of them (wider tiles for larger extents), which bounds
 * a Level 3 op's shards. */
#define BLAS3_TILE_MIN 512
#define BLAS3_TILE_MAX_COUNT 16
#define BLAS3_TILE_ROUND 64

int trn_blas3_tile_width(int extent) {
    const int64_t per = ((int64_t)extent + BLAS3_TILE_MAX_COUNT - 1) / BLAS3_TILE_MAX_COUNT;
    const int64_t w = (per + BLAS3_TILE_ROUND - 1) / BLAS3_TILE_ROUND * BLAS3_TILE_ROUND;
    return w > BLAS3_TILE_MIN ? (int)w : BLAS3_TILE_MIN;
}

int trn_blas2_tile_extent(const trn_blas2_desc *d) {
    switch (d->fn) {
    case TRN_BLAS2_GEMV: return d->trans == TRN_TRANS_N ? d->m : d->n;
    case TRN_BLAS2_GER:
    case TRN_BLAS2_GERC: return d->n;
    default: return 0; /* not split */
    }
}

int trn_blas2_tiles(const trn_blas2_desc *d) {
    const int e = trn_blas2_tile_extent(d);
    if (e <= 0 || d->m == 0 || d->n == 0)
        return 1;
    const int w = trn_blas3_tile_width(e);
    return (int)(((int64_t)e + w - 1) / w);
}

int trn_blas3_tile_extent(const trn_blas3_desc *d) {
    switch (d->fn) {
    case TRN_BLAS3_SYMM:
    case TRN_BLAS3_HEMM:
    case TRN_BLAS3_TRSM:
    case TRN_BLAS3_TRMM:
        /* From the right, the rows of the output are independent. */
        return d->side == TRN_SIDE_RIGHT ? d->m : d->n;
    case TRN_BLAS3_SYRK:
    case TRN_BLAS3_HERK:
    case TRN_BLAS3_SYR2K:
    case TRN_BLAS3_HER2K:
    case TRN_BLAS3_GEAM:
    case TRN_BLAS3_DGMM: break;
    }
    return d->n;
}

int trn_blas3_tiles(const trn_blas3_desc *d) {
    const int e = trn_blas3_tile_extent(d);
    if (e <= 0)
        return 0;
    const int w = trn_blas3_tile_width(e);
    return (int)(((int64_t)e + w - 1) / w);
}

/* Flops of the trnsolver ops: the usual leading terms (LAPACK Working Note
 * 41), times 4 for complex types; Jacobi methods at 10 sweeps, refinements
 * and Krylov solvers at their iteration limits (an upper bound). */
static double solver_cost(const trn_op_desc *op) {
    double m, n, k, f = 0.0, cx = 1.0;
    switch (op->kind) {
    case TRN_OP_SOLVER_DENSE: {
        const trn_solver_dense_desc *d = &op->u.solver_dense;
        m = d->m;
        n = d->n;
        k = d->k;
        const double mn = m < n ? m : n;
        cx = d->type == TRN_DTYPE_C32F || d->type == TRN_DTYPE_C64F ? 4.0 : 1.0;
        switch (d->fn) {
        case TRN_SOLVER_POTRF: f = n * n * n / 3.0; break;
        case TRN_SOLVER_POTRS:
        case TRN_SOLVER_GETRS: f = 2.0 * n * n * (double)d->nrhs; break;
        case TRN_SOLVER_POTRI: f = 2.0 * n * n * n / 3.0; break;
        case TRN_SOLVER_GETRF: f = m * n * mn - (m + n) * mn * mn / 2.0 + mn * mn * mn / 3.0; break;
        case TRN_SOLVER_GEQRF:
            f = 2.0 * m * n * mn - (m + n) * mn * mn + 2.0 * mn * mn * mn / 3.0;
            break;
        case TRN_SOLVER_ORGQR:
            f = 4.0 * m * n * k - 2.0 * (m + n) * k * k + 4.0 * k * k * k / 3.0;
            break;
        case TRN_SOLVER_ORMQR: f = 4.0 * m * n * k; break;
        default: break;
        }
        break;
    }
    case TRN_OP_SOLVER_BATCHED: {
        const trn_solver_batched_desc *d = &op->u.solver_batched;
        n = d->n;
        cx = d->type == TRN_DTYPE_C32F || d->type == TRN_DTYPE_C64F ? 4.0 : 1.0;
        f = (d->fn == TRN_SOLVER_POTRF_BATCHED ? n * n * n / 3.0 : 2.0 * n * n) * (double)d->batch;
        break;
    }
    case TRN_OP_SOLVER_EIGEN: {
        const trn_solver_eigen_desc *d = &op->u.solver_eigen;
        m = d->m;
        n = d->n;
        cx = d->type == TRN_DTYPE_C32F || d->type == TRN_DTYPE_C64F ? 4.0 : 1.0;
        const double big = m > n ? m : n, small = m < n ? m : n;
        switch (d->fn) {
        case TRN_SOLVER_SYEVD: f = (d->vectors ? 9.0 : 4.0 / 3.0) * n * n * n; break;
        case TRN_SOLVER_SYGVD: f = (d->vectors ? 10.0 : 7.0 / 3.0) * n * n * n; break;
        case TRN_SOLVER_GESVD: f = 4.0 * big * small * small + 8.0 * small * small * small; break;
        case TRN_SOLVER_SYEVJ: f = 10.0 * 6.0 * n * n * n; break;
        case TRN_SOLVER_GESVDJ: f = 10.0 * 4.0 * big * small * small; break;
        default: break;
        }
        break;
    }
    case TRN_OP_SOLVER_REFINE: {
        const trn_solver_refine_desc *d = &op->u.solver_refine;
        n = d->n;
        const double it = d->max_iters, rhs = d->nrhs;
        if (d->fn == TRN_SOLVER_INV_SQRT_SPD)
            f = 6.0 * n * n * n * (it < 30.0 ? it : 30.0);
        else if (d->fn == TRN_SOLVER_SOLVE_SPD_IR)
            f = n * n * n / 3.0 + 4.0 * n * n * rhs * it;
        else
            f = 2.0 * n * n * n / 3.0 + 4.0 * n * n * rhs * it * (double)d->restart;
        break;
    }
    case TRN_OP_SOLVER_KRYLOV: {
        const trn_solver_krylov_desc *d = &op->u.solver_krylov;
        n = d->op.n;
        /* Two flops per stored element and product, at most two products
         * per iteration (BSR: blocks of rb x cb elements). */
        const double nnz = d->op.kind == TRN_LINOP_SPARSE
                               ? (double)d->op.sp.nnz * (double)d->op.sp.rb * (double)d->op.sp.cb
                               : n * n;
        f = 4.0 * nnz * (double)d->max_iters;
        break;
    }
    default: break;
    }
    return f * cx;
}

double trn_op_cost(const trn_op_desc *op) {
    switch (op->kind) {
    case TRN_OP_MEMSET: return (double)op->u.memset.bytes;
    case TRN_OP_COPY: return 2.0 * (double)op->u.copy.bytes;
    case TRN_OP_GEMM: {
        const trn_gemm_desc *g = &op->u.gemm;
        /* A complex multiply-add is four real multiply-adds. The precision
         * modes count the FP32 GEMMs they run: the split bfloat16 modes 3
         * and 9, emulated FP64 36 (kernels/cpu/gemm_ozaki.c: 8 digits, the
         * 36 digit pairs with s + t <= 9). */
        const double per = (g->type == TRN_DTYPE_C32F || g->type == TRN_DTYPE_C64F) ? 8.0 : 2.0;
        double times = 1.0;
        switch (g->compute) {
        case TRN_COMPUTE_32F_BF16X3: times = 3.0; break;
        case TRN_COMPUTE_32F_BF16X9: times = 9.0; break;
        case TRN_COMPUTE_64F_EMULATED: times = 36.0; break;
        default: break;
        }
        const double batch = g->batch > 1 ? (double)g->batch : 1.0;
        return batch * (times * per * (double)g->m * (double)g->n * (double)g->k +
                        (double)g->m * (double)g->n);
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
    case TRN_OP_BLAS2: {
        /* Flops of the multiply-adds (2 real, 8 complex per element of A
         * touched once; symv/syr2/her2 touch each stored element for two
         * products). */
        const trn_blas2_desc *b = &op->u.blas2;
        const int cx = b->type == TRN_DTYPE_C32F || b->type == TRN_DTYPE_C64F;
        const double per = cx ? 8.0 : 2.0, m = (double)b->m, n = (double)b->n;
        switch (b->fn) {
        case TRN_BLAS2_GEMV:
        case TRN_BLAS2_GER:
        case TRN_BLAS2_GERC: return per * m * n;
        case TRN_BLAS2_GBMV: return per * n * (double)(b->kl + b->ku + 1);
        case TRN_BLAS2_SYMV:
        case TRN_BLAS2_HEMV:
        case TRN_BLAS2_SYR2:
        case TRN_BLAS2_HER2: return per * n * n;
        case TRN_BLAS2_TRMV:
        case TRN_BLAS2_TRSV:
        case TRN_BLAS2_SYR:
        case TRN_BLAS2_HER: return per * n * n / 2.0;
        }
        return per * m * n;
    }
    case TRN_OP_BLAS3: {
        /* Flops for the products and solves; geam and dgmm (no reuse) count
         * the bytes they touch, like copies. */
        const trn_blas3_desc *b = &op->u.blas3;
        const int cx = b->type == TRN_DTYPE_C32F || b->type == TRN_DTYPE_C64F;
        const double per = cx ? 8.0 : 2.0, m = (double)b->m, n = (double)b->n, k = (double)b->k,
                     es = (double)trn_dtype_size(b->type);
        const double side = b->side == TRN_SIDE_LEFT ? m : n; /* order of A */
        switch (b->fn) {
        case TRN_BLAS3_SYMM:
        case TRN_BLAS3_HEMM: return per * m * n * side;
        case TRN_BLAS3_SYRK:
        case TRN_BLAS3_HERK: return per * n * n * k / 2.0;
        case TRN_BLAS3_SYR2K:
        case TRN_BLAS3_HER2K: return per * n * n * k;
        case TRN_BLAS3_TRSM:
        case TRN_BLAS3_TRMM: return per * m * n * side / 2.0;
        case TRN_BLAS3_GEAM: return 3.0 * m * n * es;
        case TRN_BLAS3_DGMM: return 2.0 * m * n * es;
        }
        return per * m * n;
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
    case TRN_OP_SOLVER_DENSE:
    case TRN_OP_SOLVER_BATCHED:
    case TRN_OP_SOLVER_EIGEN:
    case TRN_OP_SOLVER_REFINE:
    case TRN_OP_SOLVER_KRYLOV: return solver_cost(op);
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
    case TRN_OP_TENSOR_CONTRACT: return op->u.tensor_contract.flops;
    case TRN_OP_TENSOR_ELEMENTWISE:
    case TRN_OP_TENSOR_REDUCTION: {
        /* One to three operations per element read (unary ops count one). */
        const trn_tensor_ew_desc *e = &op->u.tensor_ew;
        return 3.0 * (double)e->elements * (double)e->reduced;
    }
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
    case TRN_OP_AO_TO_MO: {
        /* Per P: the half transformation (nbf^2 nocc multiply-adds) and the
         * full one (nbf nocc nvir). */
        const trn_ao_to_mo_desc *a = &op->u.ao_to_mo;
        if (!a->lpq)
            return 0.0;
        const double nbf = a->nbf, nocc = a->nocc;
        return 2.0 * (double)a->naux * (nbf * nbf * nocc + nbf * nocc * (double)a->nvir);
    }
    case TRN_OP_MP2_ENERGY: {
        /* nocc (nocc + 1) / 2 pairs (i, j <= i), each an nvir x nvir x naux
         * product and nvir^2 terms of about 8 flops. */
        const trn_mp2_energy_desc *m = &op->u.mp2_energy;
        const double pairs = (double)m->nocc * ((double)m->nocc + 1.0) / 2.0;
        const double v2 = (double)m->nvir * (double)m->nvir;
        return pairs * v2 * (2.0 * (double)m->naux + 8.0);
    }
    }
    return 0.0;
}

const char *trn_solver_name(trn_solver_fn fn, trn_dtype type) {
    const int cx = type == TRN_DTYPE_C32F || type == TRN_DTYPE_C64F;
    switch (fn) {
    case TRN_SOLVER_POTRF: return "potrf";
    case TRN_SOLVER_POTRS: return "potrs";
    case TRN_SOLVER_POTRI: return "potri";
    case TRN_SOLVER_GETRF: return "getrf";
    case TRN_SOLVER_GETRS: return "getrs";
    case TRN_SOLVER_GEQRF: return "geqrf";
    case TRN_SOLVER_ORGQR: return cx ? "ungqr" : "orgqr";
    case TRN_SOLVER_ORMQR: return cx ? "unmqr" : "ormqr";
    case TRN_SOLVER_POTRF_BATCHED: return "potrfBatched";
    case TRN_SOLVER_POTRS_BATCHED: return "potrsBatched";
    case TRN_SOLVER_SYEVD: return cx ? "heevd" : "syevd";
    case TRN_SOLVER_SYGVD: return cx ? "hegvd" : "sygvd";
    case TRN_SOLVER_SYEVJ: return cx ? "heevj" : "syevj";
    case TRN_SOLVER_GESVD: return "gesvd";
    case TRN_SOLVER_GESVDJ: return "gesvdj";
    case TRN_SOLVER_INV_SQRT_SPD: return "invSqrtSpd";
    case TRN_SOLVER_SOLVE_SPD_IR: return "solveSpd";
    case TRN_SOLVER_GMRES_IR: return "gmresIr";
    case TRN_SOLVER_CG: return "cg";
    case TRN_SOLVER_GMRES: return "gmres";
    case TRN_SOLVER_BICGSTAB: return "bicgstab";
    }
    return "solver";
}

const char *trn_solver_op_name(const trn_op_desc *op) {
    switch (op->kind) {
    case TRN_OP_SOLVER_DENSE:
        return trn_solver_name(op->u.solver_dense.fn, op->u.solver_dense.type);
    case TRN_OP_SOLVER_BATCHED:
        return trn_solver_name(op->u.solver_batched.fn, op->u.solver_batched.type);
    case TRN_OP_SOLVER_EIGEN:
        return trn_solver_name(op->u.solver_eigen.fn, op->u.solver_eigen.type);
    case TRN_OP_SOLVER_REFINE:
        return trn_solver_name(op->u.solver_refine.fn, op->u.solver_refine.type);
    case TRN_OP_SOLVER_KRYLOV:
        return trn_solver_name(op->u.solver_krylov.fn, op->u.solver_krylov.type);
    default: return NULL;
    }
}
