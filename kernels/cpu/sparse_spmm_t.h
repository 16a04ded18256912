/*
 * sparse_spmm_t.h — the SpMV/SpMM kernels for one index type and one value
 * type. sparse_spmm.c includes it eight times with IT (int32_t, int64_t), VT
 * (float, double), SFX (the name suffix) and SP_TARGET (empty, or the AVX2
 * target attribute) defined; nothing else includes it.
 *
 * Every kernel reads each offset and index once into a local, checks it
 * (unsigned arithmetic: any stored value, INT64_MIN included, is simply out
 * of range), and only then uses it; a bad one fails the op with the position
 * in the message (sparse_common.h). Each output element is a sum over A's
 * stored entries in storage order, accumulated in VT, then
 * alpha * sum + beta * C (beta = 0: C is not read): the same operations
 * whatever the shard, so a sharded result is bitwise the unsharded one.
 */
#ifndef IT
#error "define IT, VT and SFX before including sparse_spmm_t.h"
#endif

#define FN2(name, sfx) name##_##sfx
#define FN1(name, sfx) FN2(name, sfx)
#define FN(name) FN1(name, SFX)

/* Columns of C one pass of the row-major kernel accumulates. */
#define SPMM_CHUNK 128
/* Columns of C one pass of the strided kernel accumulates. */
#define SPMM_JB 8
/* Consecutive column-major blocks of a BSR block row multiplied at once. */
#define BSR_RUN 16

/* 1 when structure row r's offsets are valid (0 <= p0 <= p1 <= nnz, and
 * off[0] is the base), with [*p0, *p1). */
static inline SP_TARGET int FN(row)(const IT *off, int64_t r, int64_t base, int64_t nnz,
                                    int64_t *p0, int64_t *p1) {
    const uint64_t u0 = (uint64_t)(int64_t)off[r] - (uint64_t)base;
    const uint64_t u1 = (uint64_t)(int64_t)off[r + 1] - (uint64_t)base;
    *p0 = (int64_t)u0;
    *p1 = (int64_t)u1;
    return u0 <= u1 && u1 <= (uint64_t)nnz && (r > 0 || u0 == 0);
}

/* 1 when idx[p] - base is in [0, n), with it in *c. */
static inline SP_TARGET int FN(col)(const IT *idx, int64_t p, int64_t base, int64_t n, int64_t *c) {
    const uint64_t u = (uint64_t)(int64_t)idx[p] - (uint64_t)base;
    *c = (int64_t)u;
    return u < (uint64_t)n;
}

/* Posts a bad index of row structure s at entry p of structure row r. */
static SP_TARGET int FN(bad_col)(const trn_sp_rows *s, const IT *idx, int64_t r, int64_t p,
                                 trn_kmsg *msg) {
    char where[48];
    snprintf(where, sizeof(where), " (%s %lld)",
             s->format == TRN_SP_CSC   ? "column"
             : s->format == TRN_SP_BSR ? "block row"
                                       : "row",
             (long long)r);
    return trn_sp_bad_index(msg, (uint64_t)r, s->mat, s->format, TRN_SP_INDICES, p, (int64_t)idx[p],
                            s->base, s->ncols, where);
}

static inline SP_TARGET VT FN(out)(VT acc, VT alpha, VT beta, const VT *c) {
    return beta == 0 ? alpha * acc : alpha * acc + beta * *c;
}

/* C rows [lo, hi) = alpha op(A) B + beta C for a row structure (CSR with
 * op N; CSC with op T, as the CSR of A^T). */
static SP_TARGET int FN(csr_n)(const trn_spmm_desc *d, const trn_sp_rows *s, int64_t lo, int64_t hi,
                               trn_kmsg *msg) {
    const IT *off = s->off, *idx = s->idx;
    const VT *val = d->a.values, *B = d->b.values;
    VT *C = d->c.values;
    const VT alpha = (VT)d->alpha, beta = (VT)d->beta;
    const VT *rbnd = d->row_bounds, *cbnd = d->col_bounds, thr = (VT)d->threshold;
    const int64_t nnz = s->nnz, ncols = s->ncols, n = d->c.cols, base = s->base;
    int64_t br, bc, cr, cc, p0, p1, c;
    trn_sp_strides(&d->b, &br, &bc);
    trn_sp_strides(&d->c, &cr, &cc);

    if (n == 1) { /* SpMV */
        for (int64_t r = lo; r < hi; r++) {
            if (!FN(row)(off, r, base, nnz, &p0, &p1))
                return trn_sp_row_fail(s, r, msg);
            VT acc = 0;
            if (!rbnd) {
                /* Four partial sums (entries p0+4i+q go to sum q), then
                 * (s0 + s1) + (s2 + s3): four independent add chains
                 * instead of one, which is what bounds a row's time. The
                 * order depends only on the row, never on the split. */
                VT s0 = 0, s1 = 0, s2 = 0, s3 = 0;
                int64_t p = p0, c1, c2, c3;
                for (; p + 4 <= p1; p += 4) {
                    if (!FN(col)(idx, p, base, ncols, &c))
                        return FN(bad_col)(s, idx, r, p, msg);
                    if (!FN(col)(idx, p + 1, base, ncols, &c1))
                        return FN(bad_col)(s, idx, r, p + 1, msg);
                    if (!FN(col)(idx, p + 2, base, ncols, &c2))
                        return FN(bad_col)(s, idx, r, p + 2, msg);
                    if (!FN(col)(idx, p + 3, base, ncols, &c3))
                        return FN(bad_col)(s, idx, r, p + 3, msg);
                    s0 += val[p] * B[c * br];
                    s1 += val[p + 1] * B[c1 * br];
                    s2 += val[p + 2] * B[c2 * br];
                    s3 += val[p + 3] * B[c3 * br];
                }
                for (; p < p1; p++) {
                    if (!FN(col)(idx, p, base, ncols, &c))
                        return FN(bad_col)(s, idx, r, p, msg);
                    s0 += val[p] * B[c * br];
                }
                acc = (s0 + s1) + (s2 + s3);
            } else {
                for (int64_t p = p0; p < p1; p++) {
                    if (!FN(col)(idx, p, base, ncols, &c))
                        return FN(bad_col)(s, idx, r, p, msg);
                    if (rbnd[r] * cbnd[c] >= thr)
                        acc += val[p] * B[c * br];
                }
            }
            C[r * cr] = FN(out)(acc, alpha, beta, &C[r * cr]);
        }
        return 0;
    }

    if (bc == 1) { /* row-major B: one pass over A per SPMM_CHUNK columns */
        VT acc[SPMM_CHUNK];
        for (int64_t r = lo; r < hi; r++) {
            if (!FN(row)(off, r, base, nnz, &p0, &p1))
                return trn_sp_row_fail(s, r, msg);
            for (int64_t j0 = 0; j0 < n; j0 += SPMM_CHUNK) {
                const int64_t w = n - j0 < SPMM_CHUNK ? n - j0 : SPMM_CHUNK;
                for (int64_t j = 0; j < w; j++)
                    acc[j] = 0;
                for (int64_t p = p0; p < p1; p++) {
                    if (!FN(col)(idx, p, base, ncols, &c))
                        return FN(bad_col)(s, idx, r, p, msg);
                    if (rbnd && rbnd[r] * cbnd[c] < thr)
                        continue;
                    const VT a = val[p];
                    const VT *brow = B + c * br + j0;
                    for (int64_t j = 0; j < w; j++)
                        acc[j] += a * brow[j];
                }
                VT *crow = C + r * cr + j0 * cc;
                for (int64_t j = 0; j < w; j++)
                    crow[j * cc] = FN(out)(acc[j], alpha, beta, &crow[j * cc]);
            }
        }
        return 0;
    }

    /* Strided B (column-major): SPMM_JB columns per pass over A. */
    for (int64_t j0 = 0; j0 < n; j0 += SPMM_JB) {
        const int64_t w = n - j0 < SPMM_JB ? n - j0 : SPMM_JB;
        for (int64_t r = lo; r < hi; r++) {
            if (!FN(row)(off, r, base, nnz, &p0, &p1))
                return trn_sp_row_fail(s, r, msg);
            VT acc[SPMM_JB] = {0};
            for (int64_t p = p0; p < p1; p++) {
                if (!FN(col)(idx, p, base, ncols, &c))
                    return FN(bad_col)(s, idx, r, p, msg);
                if (rbnd && rbnd[r] * cbnd[c] < thr)
                    continue;
                const VT a = val[p];
                const VT *bp = B + c * br + j0 * bc;
                if (w == SPMM_JB)
                    for (int64_t j = 0; j < SPMM_JB; j++)
                        acc[j] += a * bp[j * bc];
                else
                    for (int64_t j = 0; j < w; j++)
                        acc[j] += a * bp[j * bc];
            }
            VT *cp = C + r * cr + j0 * cc;
            for (int64_t j = 0; j < w; j++)
                cp[j * cc] = FN(out)(acc[j], alpha, beta, &cp[j * cc]);
        }
    }
    return 0;
}

/* T[out][j] += A(out, in) B(in, j0 + j) over a row structure whose rows are
 * the "in" side (CSR with op T; CSC with op N, as the CSR of A^T): T is
 * s->ncols x w, row-major. Screening (CSC only): entry p of structure row r
 * is A(idx, r). */
static SP_TARGET int FN(scatter_rows)(const trn_spmm_desc *d, const trn_sp_rows *s, int64_t j0,
                                      int64_t w, void *acc, trn_kmsg *msg) {
    VT *T = acc;
    const IT *off = s->off, *idx = s->idx;
    const VT *val = d->a.values, *B = d->b.values;
    const VT *rbnd = d->row_bounds, *cbnd = d->col_bounds, thr = (VT)d->threshold;
    const int64_t nnz = s->nnz, ncols = s->ncols, base = s->base;
    int64_t br, bc, p0, p1, c;
    trn_sp_strides(&d->b, &br, &bc);
    for (int64_t r = 0; r < s->nrows; r++) {
        if (!FN(row)(off, r, base, nnz, &p0, &p1))
            return trn_sp_row_fail(s, r, msg);
        const VT *bp = B + r * br + j0 * bc;
        for (int64_t p = p0; p < p1; p++) {
            if (!FN(col)(idx, p, base, ncols, &c))
                return FN(bad_col)(s, idx, r, p, msg);
            if (rbnd && rbnd[c] * cbnd[r] < thr)
                continue;
            const VT a = val[p];
            VT *t = T + c * w;
            for (int64_t j = 0; j < w; j++)
                t[j] += a * bp[j * bc];
        }
    }
    return 0;
}

/* The same for COO (any op): entry p is A(row[p], col[p]). */
static SP_TARGET int FN(scatter_coo)(const trn_spmm_desc *d, int64_t j0, int64_t w, void *acc,
                                     trn_kmsg *msg) {
    VT *T = acc;
    const trn_sp_mat *a = &d->a;
    const IT *ri = a->rowind, *ci = a->indices;
    const VT *val = a->values, *B = d->b.values;
    const VT *rbnd = d->row_bounds, *cbnd = d->col_bounds, thr = (VT)d->threshold;
    const int64_t base = a->base;
    const int trans = d->op_a != TRN_TRANS_N;
    int64_t br, bc, i, k;
    trn_sp_strides(&d->b, &br, &bc);
    for (int64_t p = 0; p < a->nnz; p++) {
        if (!FN(col)(ri, p, base, a->rows, &i))
            return trn_sp_bad_index(msg, (uint64_t)p, "matA", TRN_SP_COO, TRN_SP_ROWIND, p,
                                    (int64_t)ri[p], a->base, a->rows, "");
        if (!FN(col)(ci, p, base, a->cols, &k))
            return trn_sp_bad_index(msg, (uint64_t)p, "matA", TRN_SP_COO, TRN_SP_INDICES, p,
                                    (int64_t)ci[p], a->base, a->cols, "");
        if (rbnd && rbnd[i] * cbnd[k] < thr)
            continue;
        const int64_t o = trans ? k : i, in = trans ? i : k;
        const VT v = val[p];
        const VT *bp = B + in * br + j0 * bc;
        VT *t = T + o * w;
        for (int64_t j = 0; j < w; j++)
            t[j] += v * bp[j * bc];
    }
    return 0;
}

/* BSR with op N: C block rows [lo, hi). A block row accumulates in tmp
 * (rb x n, row-major) block by block. Runs of consecutive column-major
 * blocks are one product: their values form an rb x (run * cb) column-major
 * matrix, and the rows of B they need are gathered into `panel`
 * ((run * cb) x n, row-major), so large blocks run as long GEMMs. */
static SP_TARGET int FN(bsr_n)(const trn_spmm_desc *d, const trn_sp_rows *s, int64_t lo, int64_t hi,
                               int shard, trn_kmsg *msg) {
    const trn_sp_mat *a = &d->a;
    const IT *off = s->off, *idx = s->idx;
    const VT *val = a->values, *B = d->b.values;
    VT *C = d->c.values;
    const VT alpha = (VT)d->alpha, beta = (VT)d->beta;
    const VT *rbnd = d->row_bounds, *cbnd = d->col_bounds, thr = (VT)d->threshold;
    const int64_t nnz = s->nnz, base = s->base, rb = a->rb, cb = a->cb, n = d->c.cols;
    const int64_t bsz = rb * cb;
    int64_t br, bc, cr, cc, p0, p1, J;
    trn_sp_strides(&d->b, &br, &bc);
    trn_sp_strides(&d->c, &cr, &cc);
    const int gather = !a->block_row_major && bsz * n >= 4096;
    const int64_t asr = a->block_row_major ? cb : 1, asc = a->block_row_major ? 1 : rb;
    const size_t tmp_bytes = (size_t)(rb * n) * sizeof(VT);
    const size_t panel_bytes = gather ? (size_t)(BSR_RUN * cb * n) * sizeof(VT) : 0;
    VT *tmp = malloc(tmp_bytes);
    VT *panel = gather ? malloc(panel_bytes) : NULL;
    int rc = 0;
    if (!tmp || (gather && !panel)) {
        rc = trn_sp_no_memory(msg, shard, tmp_bytes + panel_bytes,
                              "a %lld x %lld block row and its panel of B", (long long)rb,
                              (long long)n);
        goto out;
    }
    for (int64_t r = lo; r < hi; r++) {
        if (!FN(row)(off, r, base, nnz, &p0, &p1)) {
            rc = trn_sp_row_fail(s, r, msg);
            goto out;
        }
        for (int64_t i = 0; i < rb * n; i++)
            tmp[i] = 0;
        int64_t run0 = 0, run = 0; /* gathered blocks run0 .. run0 + run - 1 */
        for (int64_t p = p0; p <= p1; p++) {
            int keep = 0;
            if (p < p1) {
                if (!FN(col)(idx, p, base, s->ncols, &J)) {
                    rc = FN(bad_col)(s, idx, r, p, msg);
                    goto out;
                }
                keep = !rbnd || rbnd[r] * cbnd[J] >= thr;
            }
            const int extend = keep && run > 0 && run0 + run == p && run < BSR_RUN;
            if (run > 0 && !extend) { /* the run ends: multiply it */
                trn_sp_gemm(a->type, rb, n, run * cb, 1.0, val + run0 * bsz, 1, rb, panel, n, 1,
                            1.0, tmp, n, 1);
                run = 0;
            }
            if (!keep)
                continue;
            if (!gather) {
                trn_sp_gemm(a->type, rb, n, cb, 1.0, val + p * bsz, asr, asc, B + J * cb * br, br,
                            bc, 1.0, tmp, n, 1);
                continue;
            }
            if (run == 0)
                run0 = p;
            VT *dst = panel + run * cb * n;
            for (int64_t i = 0; i < cb; i++)
                for (int64_t j = 0; j < n; j++)
                    dst[i * n + j] = B[(J * cb + i) * br + j * bc];
            run++;
        }
        for (int64_t i = 0; i < rb; i++) {
            VT *cp = C + (r * rb + i) * cr;
            for (int64_t j = 0; j < n; j++)
                cp[j * cc] = FN(out)(tmp[i * n + j], alpha, beta, &cp[j * cc]);
        }
    }
out:
    free(panel);
    free(tmp);
    return rc;
}

/* BSR with op T (one shard): T (A.cols x n, row-major) accumulates each
 * block's transpose times its block row's rows of B. */
static SP_TARGET int FN(bsr_t)(const trn_spmm_desc *d, const trn_sp_rows *s, void *acc,
                               trn_kmsg *msg) {
    VT *T = acc;
    const trn_sp_mat *a = &d->a;
    const IT *off = s->off, *idx = s->idx;
    const VT *val = a->values, *B = d->b.values;
    const int64_t nnz = s->nnz, base = s->base, rb = a->rb, cb = a->cb, n = d->c.cols;
    int64_t br, bc, p0, p1, J;
    trn_sp_strides(&d->b, &br, &bc);
    const int64_t asr = a->block_row_major ? cb : 1, asc = a->block_row_major ? 1 : rb;
    for (int64_t r = 0; r < s->nrows; r++) {
        if (!FN(row)(off, r, base, nnz, &p0, &p1))
            return trn_sp_row_fail(s, r, msg);
        for (int64_t p = p0; p < p1; p++) {
            if (!FN(col)(idx, p, base, s->ncols, &J))
                return FN(bad_col)(s, idx, r, p, msg);
            /* The block's transpose: its strides swapped. */
            trn_sp_gemm(a->type, cb, n, rb, 1.0, val + p * rb * cb, asc, asr, B + r * rb * br, br,
                        bc, 1.0, T + J * cb * n, n, 1);
        }
    }
    return 0;
}

#undef BSR_RUN
#undef SPMM_CHUNK
#undef SPMM_JB
#undef FN
#undef FN1
#undef FN2
