/*
 * nrtsim_gemm.c — the reference code of the gemm program (program.h):
 * D = alpha op(A) op(B) + beta C per batch, f32 or c32 (P planes), in the
 * modes fp32, bf16 and bf16x3.
 *
 * Operands are prepared once per batch entry and plane: fp32 uses them as
 * they are; bf16 rounds each to bfloat16 (nearest, ties to even); bf16x3
 * splits each x into hi = bf16(x) and lo = bf16(x - hi). Every product of
 * prepared values is exact in FP32 (8 x 8 significant bits) except in
 * fp32, where it is rounded once. Each element accumulates in FP32, one
 * addition per product in order of p (bf16x3: hi·hi, hi·lo, lo·hi at each
 * p); complex elements accumulate re += Ar·Br, re += (-Ai)·Bi,
 * im += Ar·Bi, im += Ai·Br, each product in the mode's form. alpha and beta
 * are applied in FP32; beta == 0 (both parts for c32) leaves C unread, as
 * BLAS does, so a NaN in C does not reach D.
 *
 * The column-major layout (layout=cm, real only) is read into the packed
 * one and computed by the same code, so both layouts give bitwise the same
 * elements.
 */
#include <stdlib.h>
#include <string.h>

#include "tests/nrtsim/nrtsim_internal.h"

float nrtsim_bf16(float x) {
    uint32_t u;
    memcpy(&u, &x, sizeof(u));
    if ((u & 0x7fffffffu) > 0x7f800000u) {
        u |= 0x00400000u; /* NaN stays NaN (quiet) when its low bits go */
    } else {
        u += 0x7fffu + ((u >> 16) & 1u);
    }
    u &= 0xffff0000u;
    memcpy(&x, &u, sizeof(x));
    return x;
}

/* One prepared operand plane: hi, and lo for bf16x3 (else NULL). */
typedef struct plane {
    const float *hi, *lo;
} plane;

/* The operand planes of one batch entry, and the buffers they live in. */
typedef struct operands {
    plane a[2], b[2];
    float *buf; /* rounded copies (bf16, bf16x3), else NULL */
} operands;

/* Prepares n values of src in mode into hi (and lo). */
static void prepare(trn_nprog_mode mode, const float *src, size_t n, float *hi, float *lo) {
    for (size_t i = 0; i < n; i++) {
        hi[i] = nrtsim_bf16(src[i]);
        if (mode == TRN_NPROG_BF16X3)
            lo[i] = nrtsim_bf16(src[i] - hi[i]);
    }
}

/* Sets ops for the planes of at and b (one batch entry each). */
static int prepare_operands(const trn_nprog_gemm *g, const float *at, const float *b,
                            operands *ops) {
    const int planes = g->complex ? 2 : 1;
    const size_t km = (size_t)g->k * (size_t)g->m, kn = (size_t)g->k * (size_t)g->n;
    if (g->mode == TRN_NPROG_FP32) {
        for (int p = 0; p < planes; p++) {
            ops->a[p] = (plane){at + p * km, NULL};
            ops->b[p] = (plane){b + p * kn, NULL};
        }
        return 0;
    }
    const size_t copies = g->mode == TRN_NPROG_BF16X3 ? 2 : 1;
    float *buf = ops->buf;
    if (!buf && !(buf = ops->buf = malloc(copies * planes * (km + kn) * sizeof(float))))
        return -1;
    for (int p = 0; p < planes; p++) {
        float *ah = buf, *al = copies == 2 ? buf + km : NULL;
        buf += copies * km;
        float *bh = buf, *bl = copies == 2 ? buf + kn : NULL;
        buf += copies * kn;
        prepare(g->mode, at + p * km, km, ah, al);
        prepare(g->mode, b + p * kn, kn, bh, bl);
        ops->a[p] = (plane){ah, al};
        ops->b[p] = (plane){bh, bl};
    }
    return 0;
}

/* acc[0..n) += sign x · brow, the product in the mode's form. */
static void axpy(float *acc, int n, float sign, const plane *a, size_t ai, const plane *b,
                 size_t bi) {
    const float xh = sign * a->hi[ai];
    const float *bh = b->hi + bi;
    if (!a->lo) {
        for (int j = 0; j < n; j++)
            acc[j] += xh * bh[j];
        return;
    }
    const float xl = sign * a->lo[ai];
    const float *bl = b->lo + bi;
    for (int j = 0; j < n; j++) {
        acc[j] += xh * bh[j];
        acc[j] += xh * bl[j];
        acc[j] += xl * bh[j];
    }
}

/* Row i of op(A) op(B) into re (and im for c32). */
static void product_row(const trn_nprog_gemm *g, const operands *o, int i, float *re, float *im) {
    const size_t m = (size_t)g->m, n = (size_t)g->n;
    memset(re, 0, n * sizeof(float));
    if (g->complex)
        memset(im, 0, n * sizeof(float));
    for (size_t p = 0; p < (size_t)g->k; p++) {
        const size_t ai = p * m + (size_t)i, bi = p * n;
        axpy(re, g->n, 1.0f, &o->a[0], ai, &o->b[0], bi);
        if (!g->complex)
            continue;
        axpy(re, g->n, -1.0f, &o->a[1], ai, &o->b[1], bi);
        axpy(im, g->n, 1.0f, &o->a[0], ai, &o->b[1], bi);
        axpy(im, g->n, 1.0f, &o->a[1], ai, &o->b[0], bi);
    }
}

/* D row i = alpha (re, im) + beta C row i, in FP32. */
static void scale_row(const trn_nprog_gemm *g, const float *scal, const float *c, float *d,
                      size_t row, const float *re, const float *im) {
    const size_t mn = (size_t)g->m * (size_t)g->n, n = (size_t)g->n;
    if (!g->complex) {
        const float alpha = scal[0], beta = scal[1];
        for (size_t j = 0; j < n; j++)
            d[row + j] = beta != 0.0f ? alpha * re[j] + beta * c[row + j] : alpha * re[j];
        return;
    }
    const float ar = scal[0], ai = scal[1], br = scal[2], bi = scal[3];
    const int use_c = br != 0.0f || bi != 0.0f;
    for (size_t j = 0; j < n; j++) {
        float dr = ar * re[j] - ai * im[j], di = ar * im[j] + ai * re[j];
        if (use_c) {
            const float cr = c[row + j], ci = c[mn + row + j];
            dr += br * cr - bi * ci;
            di += br * ci + bi * cr;
        }
        d[row + j] = dr;
        d[mn + row + j] = di;
    }
}

static trn_nrt_status packed_run(const trn_nprog_gemm *g, const float *at, const float *b,
                                 const float *c, const float *scal, float *d) {
    const size_t planes = g->complex ? 2 : 1;
    const size_t km = (size_t)g->k * (size_t)g->m, kn = (size_t)g->k * (size_t)g->n,
                 mn = (size_t)g->m * (size_t)g->n;
    operands ops = {.buf = NULL};
    float *row = malloc(2 * (size_t)g->n * sizeof(float));
    if (!row)
        return TRN_NRT_FAIL_HOST_MEM_ALLOC;
    for (size_t e = 0; e < (size_t)g->batch; e++) {
        if (prepare_operands(g, at + e * planes * km, b + e * planes * kn, &ops) != 0) {
            free(row);
            return TRN_NRT_FAIL_HOST_MEM_ALLOC;
        }
        const size_t off = e * planes * mn;
        for (int i = 0; i < g->m; i++) {
            product_row(g, &ops, i, row, row + g->n);
            scale_row(g, scal, c + off, d + off, (size_t)i * (size_t)g->n, row, row + g->n);
        }
    }
    free(ops.buf);
    free(row);
    return TRN_NRT_SUCCESS;
}

/* A column-major batch entry (layout=cm) into the packed layout:
 * at[l][i] = op(A)(i, l), b[l][j] = op(B)(l, j), c[i][j] = C(i, j). */
static void from_colmajor(const trn_nprog_gemm *g, const float *a, const float *b, const float *c,
                          float *pa, float *pb, float *pc) {
    const size_t m = (size_t)g->m, n = (size_t)g->n, k = (size_t)g->k;
    /* Each column is its matrix's rows long (program.h). */
    const size_t lda = g->ta ? k : m, ldb = g->tb ? n : k, ldc = m;
    for (size_t l = 0; l < k; l++) {
        for (size_t i = 0; i < m; i++)
            pa[l * m + i] = g->ta ? a[l + i * lda] : a[i + l * lda];
        for (size_t j = 0; j < n; j++)
            pb[l * n + j] = g->tb ? b[j + l * ldb] : b[l + j * ldb];
    }
    for (size_t i = 0; i < m; i++)
        for (size_t j = 0; j < n; j++)
            pc[i * n + j] = c[i + j * ldc];
}

static trn_nrt_status colmajor_run(const trn_nprog_gemm *g, const float *a, const float *b,
                                   const float *c, const float *scal, float *d) {
    const trn_nprog_gemm_bytes by = trn_nprog_gemm_sizes(g);
    trn_nprog_gemm one = *g;
    one.layout = TRN_NPROG_PACKED;
    one.batch = 1;
    const size_t m = (size_t)g->m, n = (size_t)g->n, k = (size_t)g->k;
    float *pa = malloc((m * k + k * n + 2 * m * n) * sizeof(float));
    if (!pa)
        return TRN_NRT_FAIL_HOST_MEM_ALLOC;
    float *pb = pa + m * k, *pc = pb + k * n, *pd = pc + m * n;
    const size_t ea = (size_t)(by.at / 4 / (uint64_t)g->batch),
                 eb = (size_t)(by.b / 4 / (uint64_t)g->batch),
                 ec = (size_t)(by.c / 4 / (uint64_t)g->batch);
    trn_nrt_status st = TRN_NRT_SUCCESS;
    for (size_t e = 0; e < (size_t)g->batch && st == TRN_NRT_SUCCESS; e++) {
        from_colmajor(g, a + e * ea, b + e * eb, c + e * ec, pa, pb, pc);
        st = packed_run(&one, pa, pb, pc, scal, pd);
        float *out = d + e * m * n; /* d[j][i] = D(i, j) */
        for (size_t i = 0; i < m; i++)
            for (size_t j = 0; j < n; j++)
                out[j * m + i] = pd[i * n + j];
    }
    free(pa);
    return st;
}

trn_nrt_status nrtsim_gemm_run(const trn_nprog_gemm *g, const float *at, const float *b,
                               const float *c, const float *scal, float *d) {
    return g->layout == TRN_NPROG_COLMAJOR ? colmajor_run(g, at, b, c, scal, d)
                                           : packed_run(g, at, b, c, scal, d);
}
