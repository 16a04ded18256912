/*
 * tensor.c — trntensor contractions on the CPU backend: the plan hooks
 * (a contraction plan is its GEMM mapping, ops/tensor_plan.h) and the
 * kernel, which runs one GEMM per batch element through blas_gemm.c's
 * trn_cpu_gemm_one (so every precision mode of trnblas applies).
 *
 * Work is split like a batched GEMM (blas_gemm.c): the units are (batch
 * element, block of 24 of D's view's columns); a shard takes a contiguous
 * run of units and makes one GEMM call per batch element it touches, over
 * the columns it owns. Columns cut at multiples of 24 give the same bits as
 * one call, and packing (copying an operand whose modes do not fuse into a
 * matrix) and scattering are copies, so a sharded contraction is bitwise
 * equal to the unsharded one. Shards write disjoint parts of D.
 *
 * Complex data (C32F, C64F) run through cgemm / zgemm. A conjugated operand
 * (the spec's conj_a / conj_b) used transposed in place becomes
 * conjugate-transposed (TRN_TRANS_C); one used untransposed is packed
 * (BLAS has no conjugate without transpose) and conjugated in the packed
 * copy. Either way each element is conjugated exactly, so the bits do not
 * depend on the split either.
 *
 * 16-bit storage (R16F, R16BF, 32F compute) runs through gemm_narrow.c
 * (widened exactly, FP32 products and sums, one rounding to the 16-bit
 * type). So that the rounding stays one, a packed D with beta != 0 has C's
 * block gathered into the scratch and the GEMM adds beta C itself; the
 * scatter then only copies.
 */
#include <complex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/cpu/blas_gemm.h"
#include "kernels/cpu/cpu_kernels.h"
#include "ops/tensor_plan.h"

/* The column blocks of blas_gemm.c (GEMM_SHARD_COL_ALIGN). */
#define TENSOR_COL_BLOCK 24

void *trn_cpu_tensor_plan_create(const trn_plan_spec *spec, trn_kstatus *why, char *err,
                                 size_t errlen) {
    trn_tensor_plan *p = malloc(sizeof(*p));
    if (!p) {
        snprintf(err, errlen, "daemon out of memory for a contraction plan");
        *why = TRN_KSTATUS_NO_MEMORY;
        return NULL;
    }
    if (trn_tensor_plan_make(&spec->u.tensor, p, err, errlen) != 0) {
        free(p);
        *why = TRN_KSTATUS_FAILED;
        return NULL;
    }
    return p;
}

uint64_t trn_cpu_tensor_plan_bytes(const void *plan) {
    (void)plan;
    return sizeof(trn_tensor_plan);
}

void trn_cpu_tensor_plan_release(void *plan) {
    free(plan);
}

/* Offsets in operand o of every index 0 .. g->total - 1 of group g (first
 * mode fastest). */
static void group_offsets(const trn_tensor_group *g, int o, int64_t *out) {
    out[0] = 0;
    int64_t len = 1;
    for (int i = 0; i < g->n; i++) {
        for (int64_t j = 1; j < g->extent[i]; j++)
            for (int64_t t = 0; t < len; t++)
                out[j * len + t] = out[t] + j * g->stride[o][i];
        len *= g->extent[i];
    }
}

/* Offset in operand o of index t of group g. */
static int64_t group_offset(const trn_tensor_group *g, int o, int64_t t) {
    int64_t off = 0;
    for (int i = 0; i < g->n; i++) {
        off += (t % g->extent[i]) * g->stride[o][i];
        t /= g->extent[i];
    }
    return off;
}

/* dst[r + c*rows] = src[roff[r] + coff[c]] for a rows x cols block;
 * conj: complex elements conjugated (the sign of the imaginary part,
 * the second half of each element, flipped). */
static void gather(size_t es, char *dst, const char *src, const int64_t *roff, size_t rows,
                   const int64_t *coff, size_t cols, int conj) {
    for (size_t c = 0; c < cols; c++) {
        const char *s = src + (size_t)coff[c] * es;
        char *d = dst + c * rows * es;
        if (es == 2)
            for (size_t r = 0; r < rows; r++)
                memcpy(d + r * 2, s + (size_t)roff[r] * 2, 2);
        else if (es == 4)
            for (size_t r = 0; r < rows; r++)
                memcpy(d + r * 4, s + (size_t)roff[r] * 4, 4);
        else if (es == 8)
            for (size_t r = 0; r < rows; r++)
                memcpy(d + r * 8, s + (size_t)roff[r] * 8, 8);
        else
            for (size_t r = 0; r < rows; r++)
                memcpy(d + r * 16, s + (size_t)roff[r] * 16, 16);
    }
    if (!conj)
        return;
    const size_t n = rows * cols;
    if (es == 8) {
        float *f = (float *)(void *)dst;
        for (size_t i = 0; i < n; i++)
            f[2 * i + 1] = -f[2 * i + 1];
    } else {
        double *f = (double *)(void *)dst;
        for (size_t i = 0; i < n; i++)
            f[2 * i + 1] = -f[2 * i + 1];
    }
}

/* D[block] = T + beta C[block] (T rows x cols, packed; C NULL: D = T). */
static void scatter(trn_dtype type, const void *t, void *d, const void *c, trn_scalar beta,
                    const int64_t *roff, size_t rows, const int64_t *coff, size_t cols) {
    const float complex bf = CMPLXF((float)beta.re, (float)beta.im);
    const double complex bd = CMPLX(beta.re, beta.im);
    const size_t es = trn_dtype_size(type);
    for (size_t j = 0; j < cols; j++)
        for (size_t r = 0; r < rows; r++) {
            const size_t o = (size_t)(roff[r] + coff[j]), i = r + j * rows;
            if (!c) {
                memcpy((char *)d + o * es, (const char *)t + i * es, es);
                continue;
            }
            switch (type) {
            case TRN_DTYPE_R32F: {
                const float v = ((const float *)t)[i];
                ((float *)d)[o] = c ? v + (float)beta.re * ((const float *)c)[o] : v;
                break;
            }
            case TRN_DTYPE_C32F: {
                const float complex v = ((const float complex *)t)[i];
                ((float complex *)d)[o] = c ? v + bf * ((const float complex *)c)[o] : v;
                break;
            }
            case TRN_DTYPE_C64F: {
                const double complex v = ((const double complex *)t)[i];
                ((double complex *)d)[o] = c ? v + bd * ((const double complex *)c)[o] : v;
                break;
            }
            default: {
                const double v = ((const double *)t)[i];
                ((double *)d)[o] = c ? v + beta.re * ((const double *)c)[o] : v;
            }
            }
        }
}

/* D[block] = C[block] (same layout). */
static void copy_block(size_t es, void *d, const void *c, const int64_t *roff, size_t rows,
                       const int64_t *coff, size_t cols) {
    for (size_t j = 0; j < cols; j++)
        for (size_t r = 0; r < rows; r++) {
            const size_t o = (size_t)(roff[r] + coff[j]) * es;
            memcpy((char *)d + o, (const char *)c + o, es);
        }
}

trn_kstatus trn_cpu_tensor_contract(const trn_tensor_contract_desc *d, trn_kmsg *kmsg, int shard,
                                    int nshards) {
    const trn_tensor_plan *p = d->plan;
    const size_t es = trn_dtype_size(d->type);
    const size_t m = (size_t)p->m, n = (size_t)p->n, k = (size_t)p->k;
    const size_t blocks = (n + TENSOR_COL_BLOCK - 1) / TENSOR_COL_BLOCK;
    size_t lo, hi;
    trn_cpu_shard_range((size_t)p->nbatch * blocks, shard, nshards, &lo, &hi);
    if (lo >= hi)
        return TRN_KSTATUS_OK;
    const char *xbase = p->swap ? d->b : d->a, *ybase = p->swap ? d->a : d->b;
    const int beta_nz = d->beta.re != 0.0 || d->beta.im != 0.0;
    const int narrow = d->type == TRN_DTYPE_R16F || d->type == TRN_DTYPE_R16BF;
    const int c_apart = d->c && d->c != d->d && beta_nz;
    /* Conjugated operands: TRN_TRANS_C in place when used transposed, else
     * packed and conjugated there. */
    const int conj_x = p->swap ? p->spec.conj_b : p->spec.conj_a;
    const int conj_y = p->swap ? p->spec.conj_a : p->spec.conj_b;
    const int pack_x = p->x.packed || (conj_x && p->x.trans == TRN_TRANS_N);
    const int pack_y = p->y.packed || (conj_y && p->y.trans == TRN_TRANS_N);

    /* Offsets of the groups' indices, and scratch for packed operands. */
    const size_t xs_bytes = pack_x ? m * k * es : 0, ys_bytes = pack_y ? k * n * es : 0,
                 ds_bytes = p->d.packed ? m * n * es : 0;
    int64_t *rx = malloc(m * sizeof(int64_t)), *rd = malloc(m * sizeof(int64_t));
    int64_t *sx = malloc(k * sizeof(int64_t)), *sy = malloc(k * sizeof(int64_t));
    int64_t *cy = malloc(n * sizeof(int64_t)), *cd = malloc(n * sizeof(int64_t));
    char *xs = pack_x ? malloc(xs_bytes) : NULL;
    char *ys = pack_y ? malloc(ys_bytes) : NULL;
    char *ds = p->d.packed ? malloc(ds_bytes) : NULL;
    trn_kstatus st = TRN_KSTATUS_OK;
    if (!rx || !rd || !sx || !sy || !cy || !cd || (pack_x && !xs) || (pack_y && !ys) ||
        (p->d.packed && !ds)) {
        st = trn_kmsg_no_memory(kmsg, shard,
                                2 * (m + k + n) * sizeof(int64_t) + xs_bytes + ys_bytes + ds_bytes,
                                "the packed operands of a contraction (%zu x %zu x %zu)", m, n, k);
        goto done;
    }
    group_offsets(&p->rows, TRN_TP_X, rx);
    group_offsets(&p->rows, TRN_TP_D, rd);
    group_offsets(&p->sum, TRN_TP_X, sx);
    group_offsets(&p->sum, TRN_TP_Y, sy);
    group_offsets(&p->cols, TRN_TP_Y, cy);
    group_offsets(&p->cols, TRN_TP_D, cd);

    for (size_t u = lo; u < hi && st == TRN_KSTATUS_OK;) {
        const size_t i = u / blocks, first = u % blocks;
        const size_t last = hi - i * blocks < blocks ? hi - i * blocks : blocks;
        const size_t j0 = first * TENSOR_COL_BLOCK;
        const size_t j1 = last * TENSOR_COL_BLOCK < n ? last * TENSOR_COL_BLOCK : n;
        const size_t nc = j1 - j0;
        const int64_t ox = group_offset(&p->batch, TRN_TP_X, (int64_t)i);
        const int64_t oy = group_offset(&p->batch, TRN_TP_Y, (int64_t)i);
        const int64_t od = group_offset(&p->batch, TRN_TP_D, (int64_t)i);
        trn_gemm_desc gd = {
            .type = d->type,
            .transa = p->x.trans,
            .transb = p->y.trans,
            .m = (int)m,
            .n = (int)nc,
            .k = (int)k,
            .lda = p->x.ld,
            .ldb = p->y.ld,
            .compute = p->spec.compute,
        };
        trn_gemm_one g = {.d = &gd,
                          .j0 = 0,
                          .j1 = (int)nc,
                          .alpha = d->alpha,
                          .beta = d->beta,
                          .kmsg = kmsg,
                          .shard = shard};
        if (pack_x) {
            gather(es, xs, xbase + (size_t)ox * es, rx, m, sx, k, conj_x);
            gd.transa = TRN_TRANS_N;
            gd.lda = (int)m;
            g.a = xs;
        } else {
            if (conj_x)
                gd.transa = TRN_TRANS_C;
            g.a = xbase + (size_t)ox * es;
        }
        if (pack_y) {
            gather(es, ys, ybase + (size_t)oy * es, sy, k, cy + j0, nc, conj_y);
            gd.transb = TRN_TRANS_N;
            gd.ldb = (int)k;
            g.b = ys;
        } else {
            if (conj_y)
                gd.transb = TRN_TRANS_C;
            const size_t col = p->y.trans == TRN_TRANS_N ? j0 * (size_t)p->y.ld : j0;
            g.b = ybase + ((size_t)oy + col) * es;
        }
        char *dbase = (char *)d->d + (size_t)od * es;
        const char *cbase = d->c ? (const char *)d->c + (size_t)od * es : NULL;
        if (p->d.packed) {
            gd.ldc = (int)m;
            g.c = ds;
            const int c_in_gemm = narrow && beta_nz && cbase;
            if (c_in_gemm)
                gather(es, ds, cbase, rd, m, cd + j0, nc, 0);
            else
                g.beta = (trn_scalar){0.0, 0.0};
            st = trn_cpu_gemm_one(&g);
            if (st == TRN_KSTATUS_OK)
                scatter(d->type, ds, dbase, beta_nz && !c_in_gemm ? cbase : NULL, d->beta, rd, m,
                        cd + j0, nc);
        } else {
            if (c_apart)
                copy_block(es, dbase, cbase, rd, m, cd + j0, nc);
            gd.ldc = p->d.ld;
            g.c = dbase + j0 * (size_t)p->d.ld * es;
            st = trn_cpu_gemm_one(&g);
        }
        u = (i + 1) * blocks;
    }
done:
    free(rx);
    free(rd);
    free(sx);
    free(sy);
    free(cy);
    free(cd);
    free(xs);
    free(ys);
    free(ds);
    return st;
}

/* The backend's entries (cpu_kernels.h). */
TRN_CPU_ENTRY(tensor_contract,
              trn_cpu_tensor_contract(&op->u.tensor_contract, op->kmsg, shard, nshards))
