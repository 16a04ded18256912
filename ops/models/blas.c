/*
 * models/blas.c — cost and shard limit of the trnblas ops (the output tiles
 * Level 2 and Level 3 ops are cut into are ops/blas.c's).
 */
#include "ops/convert_stage.h"
#include "ops/models/model.h"

/* The conversion stage of a precision-mode GEMM (ops/convert_stage.h):
 * the bytes it reads (op(A), op(B)) and writes (their pieces). */
static double split_ahead_bytes(const trn_gemm_desc *g) {
    const double elems = (double)g->k * ((double)g->m + (double)g->n);
    const double es = g->type == TRN_DTYPE_C32F ? 8.0 : 4.0;
    return elems * es * (1.0 + (double)trn_gemm_pieces(g->compute));
}

/* A complex multiply-add is four real multiply-adds. The precision
 * modes count the FP32 GEMMs they run: the split bfloat16 modes 3
 * and 9, emulated FP64 36 (kernels/cpu/gemm_ozaki.c: 8 digits, the
 * 36 digit pairs with s + t <= 9). */
static double cost_gemm(const trn_op_desc *op) {
    const trn_gemm_desc *g = &op->u.gemm;
    if (g->split_stage == TRN_GEMM_SPLIT_AHEAD)
        return split_ahead_bytes(g);
    const double per = (g->type == TRN_DTYPE_C32F || g->type == TRN_DTYPE_C64F) ? 8.0 : 2.0;
    double times = 1.0;
    switch (g->compute) {
    case TRN_COMPUTE_32F_BF16X3: times = 3.0; break;
    case TRN_COMPUTE_32F_BF16X9: times = 9.0; break;
    case TRN_COMPUTE_64F_EMULATED: times = 36.0; break;
    default: break;
    }
    const double batch = g->batch > 1 ? (double)g->batch : 1.0;
    return batch *
           (times * per * (double)g->m * (double)g->n * (double)g->k + (double)g->m * (double)g->n);
}

/* Flops: a real multiply-add is 2, a complex one 8; copies and swaps
 * count the bytes they move. */
static double cost_blas1(const trn_op_desc *op) {
    const trn_blas1_desc *b = &op->u.blas1;
    const int cx = b->type == TRN_DTYPE_C32F || b->type == TRN_DTYPE_C64F;
    const double n = (double)b->n;
    switch (b->fn) {
    case TRN_BLAS1_COPY: return 2.0 * n * (double)trn_dtype_size(b->type);
    case TRN_BLAS1_SWAP: return 4.0 * n * (double)trn_dtype_size(b->type);
    case TRN_BLAS1_ROT: return (cx ? 16.0 : 6.0) * n;
    case TRN_BLAS1_ROTM: return 6.0 * n;
    case TRN_BLAS1_ROTG:
    case TRN_BLAS1_ROTMG: return 32.0; /* a few scalar operations */
    default: return (cx ? 8.0 : 2.0) * n;
    }
}

/* Flops of the multiply-adds (2 real, 8 complex per element of A
 * touched once; symv/syr2/her2 touch each stored element for two
 * products). */
static double cost_blas2(const trn_op_desc *op) {
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
    case TRN_BLAS2_TBMV:
    case TRN_BLAS2_TBSV: return per * n * (double)(b->k + 1);
    case TRN_BLAS2_SBMV:
    case TRN_BLAS2_HBMV: return 2.0 * per * n * (double)(b->k + 1);
    case TRN_BLAS2_TPMV:
    case TRN_BLAS2_TPSV:
    case TRN_BLAS2_SPR:
    case TRN_BLAS2_HPR: return per * n * n / 2.0;
    case TRN_BLAS2_SPMV:
    case TRN_BLAS2_HPMV:
    case TRN_BLAS2_SPR2:
    case TRN_BLAS2_HPR2: return per * n * n;
    }
    return per * m * n;
}

/* Whether a Level 3 op only moves data: geam and dgmm (no reuse), which
 * count the bytes they touch, like copies. */
static int blas3_moves(const trn_blas3_desc *b) {
    return b->fn == TRN_BLAS3_GEAM || b->fn == TRN_BLAS3_DGMM;
}

/* Flops for the products and solves; geam and dgmm (no reuse) count
 * the bytes they touch, like copies. */
static double cost_blas3(const trn_op_desc *op) {
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
    case TRN_BLAS3_SYRKX:
    case TRN_BLAS3_HERKX: return per * n * n * k / 2.0;
    case TRN_BLAS3_TRSM:
    case TRN_BLAS3_TRMM: return per * m * n * side / 2.0;
    case TRN_BLAS3_GEAM: return 3.0 * m * n * es;
    case TRN_BLAS3_DGMM: return 2.0 * m * n * es;
    }
    return per * m * n;
}

/* Blocks of C's columns, by flops and width (ops/shard.h); a batch splits by
 * matrices and by column blocks of each. Without A and B (alpha = 0 or
 * k = 0) the kernel only scales C: m*n counts instead of the flops. */
static double shard_limit_gemm(const trn_op_desc *op) {
    const trn_gemm_desc *g = &op->u.gemm;
    if (g->split_stage == TRN_GEMM_SPLIT_AHEAD) /* by bytes; a shard takes whole columns */
        return trn_op_min(split_ahead_bytes(g) / (double)TRN_SHARD_MEM_MIN_BYTES,
                          (double)g->k + (double)g->n);
    const double batch = g->batch > 1 ? (double)g->batch : 1.0;
    const int reads = (g->a && g->b) || (g->a_list && g->b_list);
    const double cost = reads ? cost_gemm(op) : batch * (double)g->m * (double)g->n;
    return trn_op_min(cost / TRN_SHARD_GEMM_MIN_FLOP,
                      batch * (double)g->n / TRN_SHARD_GEMM_MIN_COLS);
}

/* One shard: Level 1 is memory-bound, and reductions stay bitwise
 * reproducible whatever the core count. */
static double shard_limit_blas1(const trn_op_desc *op) {
    (void)op;
    return 1.0;
}

/* GEMV and GER/GERC by the bytes of A, whole tiles only; every other
 * Level 2 op is one tile. */
static double shard_limit_blas2(const trn_op_desc *op) {
    const trn_blas2_desc *b = &op->u.blas2;
    const double by_bytes = (double)b->m * (double)b->n * (double)trn_dtype_size(b->type) /
                            (double)TRN_SHARD_BLAS2_MIN_BYTES;
    return trn_op_min(by_bytes, (double)trn_blas2_tiles(b));
}

/* Whole output tiles only; geam and dgmm by the bytes they touch, like
 * copies, the others by flops like GEMM (without A, alpha = 0, they only
 * scale or clear the output). */
static double shard_limit_blas3(const trn_op_desc *op) {
    const trn_blas3_desc *b = &op->u.blas3;
    double by_size;
    if (blas3_moves(b))
        by_size = cost_blas3(op) / (double)TRN_SHARD_MEM_MIN_BYTES;
    else
        by_size = (b->a ? cost_blas3(op) : (double)b->m * (double)b->n) / TRN_SHARD_GEMM_MIN_FLOP;
    return trn_op_min(by_size, (double)trn_blas3_tiles(b));
}

/* Householder QR of an m x n matrix, m >= n or not: 2 k^2 (max - k/3)
 * with k = min(m, n) (LAPACK's geqrf count, 2 m n^2 - 2/3 n^3 for m >= n). */
static double qr_flops(double m, double n) {
    const double k = m < n ? m : n, big = m < n ? n : m;
    return 2.0 * k * k * (big - k / 3.0);
}

/* Batched LU, per matrix (LAPACK Working Note 41's leading terms, times 4
 * for complex types): getrf 2/3 n^3, getrs 2 n^2 nrhs; getri is a solve with
 * the identity's n columns, 2 n^3, and matinv getrf and getri, 8/3 n^3;
 * geqrf and gels as counted below; trsm n^2 nrhs. */
static double cost_lu_batched(const trn_op_desc *op) {
    const trn_lu_batched_desc *d = &op->u.lu_batched;
    const double n = (double)d->n;
    const double cx = d->type == TRN_DTYPE_C32F || d->type == TRN_DTYPE_C64F ? 4.0 : 1.0;
    double per;
    switch (d->fn) {
    case TRN_LU_GETRF: per = 2.0 / 3.0 * n * n * n; break;
    case TRN_LU_GETRS: per = 2.0 * n * n * (double)d->nrhs; break;
    case TRN_LU_GETRI: per = 2.0 * n * n * n; break;
    case TRN_LU_GEQRF: per = qr_flops((double)d->m, n); break;
    case TRN_LU_GELS:
        /* QR, Q^H C (4 m n nrhs - 2 n^2 nrhs), the triangular solve (n^2 nrhs). */
        per = qr_flops((double)d->m, n) + (4.0 * (double)d->m * n - n * n) * (double)d->nrhs;
        break;
    case TRN_LU_TRSM: per = n * n * (double)d->nrhs; break; /* order n, nrhs right-hand sides */
    default: per = 8.0 / 3.0 * n * n * n; break;
    }
    return cx * per * (double)d->batch;
}

/* Whole matrices only, by GEMM's flops: a batch splits, one matrix does
 * not. */
static double shard_limit_lu_batched(const trn_op_desc *op) {
    return trn_op_whole_matrices(cost_lu_batched(op), op->u.lu_batched.batch);
}

/* The table's entries (ops/models/model.h). */
TRN_OP_MODEL(gemm,
             op->u.gemm.split_stage == TRN_GEMM_SPLIT_AHEAD ? TRN_PACE_STREAM : TRN_PACE_DENSE)
TRN_OP_MODEL(blas1, TRN_PACE_STREAM)
TRN_OP_MODEL(blas2, TRN_PACE_STREAM)
TRN_OP_MODEL(blas3, blas3_moves(&op->u.blas3) ? TRN_PACE_STREAM : TRN_PACE_DENSE)
TRN_OP_MODEL(lu_batched, TRN_PACE_DENSE)
