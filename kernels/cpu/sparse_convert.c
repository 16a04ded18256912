/*
 * sparse_convert.c — trnsparse's format conversions on the CPU backend:
 * CSR <-> COO row indices, CSR -> CSC (a stable counting sort: row indices
 * come out sorted within each column), CSR -> BSR (block-row offsets, then
 * sorted block columns and the blocks' values, duplicates added), BSR -> CSR
 * (every element of every block), dense -> CSR/CSC (counts, then entries)
 * and sparse -> dense (duplicates added).
 *
 * BSR blocks are rb x cb (general BSR: cuSPARSE's csr2gebsr and gebsr2csr;
 * square for csr2bsr and bsr2csr); BSR -> CSR may write the structure only
 * (the first step of gebsr2gebsr's count).
 *
 * Conversions move indices and values; they are memory-bound and not hot, so
 * they read indices through trn_sp_ld (either type) and copy values as
 * bytes, doing arithmetic only where they must (adding duplicates, testing
 * for zero), real and complex alike (a complex value adds part by part and
 * is zero when both parts are). Every offset and index read is checked before use
 * (sparse_common.h), including offsets a _FILL step reads back from the
 * client (they must match what the conversion finds), and private cursors
 * bound every write, so edited or racing input fails the op cleanly.
 *
 * Shards: CSR -> COO and BSR -> CSR split the source's rows by stored
 * entries, CSR -> BSR and dense -> sparse split block rows / rows evenly;
 * each writes only its own rows' part of the output. The others need one
 * pass over everything (counts, prefix sums, a scatter) and run as one
 * shard (trn_spconvert_split).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/cpu/cpu_kernels.h"
#include "kernels/cpu/sparse_common.h"
#include "kernels/cpu/sparse_ell.h"

/* ---- values --------------------------------------------------------------------------- */

static int is_zero(trn_dtype t, const void *v, int64_t k) {
    switch (t) {
    case TRN_DTYPE_R32F: return ((const float *)v)[k] == 0.0f;
    case TRN_DTYPE_C32F:
        return ((const float *)v)[2 * k] == 0.0f && ((const float *)v)[2 * k + 1] == 0.0f;
    case TRN_DTYPE_C64F:
        return ((const double *)v)[2 * k] == 0.0 && ((const double *)v)[2 * k + 1] == 0.0;
    default: return ((const double *)v)[k] == 0.0;
    }
}

/* dst[i] += src[k] (a complex value adds part by part) */
static void add_val(trn_dtype t, void *dst, int64_t i, const void *src, int64_t k) {
    switch (t) {
    case TRN_DTYPE_R32F: ((float *)dst)[i] += ((const float *)src)[k]; break;
    case TRN_DTYPE_C32F:
        ((float *)dst)[2 * i] += ((const float *)src)[2 * k];
        ((float *)dst)[2 * i + 1] += ((const float *)src)[2 * k + 1];
        break;
    case TRN_DTYPE_C64F:
        ((double *)dst)[2 * i] += ((const double *)src)[2 * k];
        ((double *)dst)[2 * i + 1] += ((const double *)src)[2 * k + 1];
        break;
    default: ((double *)dst)[i] += ((const double *)src)[k]; break;
    }
}

static void copy_val(size_t es, void *dst, int64_t i, const void *src, int64_t k) {
    memcpy((char *)dst + (size_t)i * es, (const char *)src + (size_t)k * es, es);
}

/* Index idx[p] of a matrix checked into [0, n); -1 after posting. */
static int index_at(const void *idx, int64_t p, int idx64, int base, int64_t n, int64_t *out,
                    trn_kmsg *msg, uint64_t rank, const char *mat, trn_sp_format f,
                    trn_sp_array which, const char *where) {
    const int64_t v = trn_sp_ld(idx, p, idx64);
    const uint64_t u = (uint64_t)v - (uint64_t)base;
    if (u >= (uint64_t)n)
        return trn_sp_bad_index(msg, rank, mat, f, which, p, v, base, n, where);
    *out = (int64_t)u;
    return 0;
}

/* n int64 cursors of scratch (at least one, so NULL means no memory). */
static int64_t *scratch_i64(int64_t n) {
    return calloc(n > 0 ? (size_t)n : 1, sizeof(int64_t));
}

/* ---- CSR <-> COO ------------------------------------------------------------------------ */

static int csr_to_coo(const trn_spconvert_desc *d, int64_t lo, int64_t hi, trn_kmsg *msg) {
    const trn_sp_rows s = trn_sp_rows_of(&d->src, "src");
    int64_t p0, p1;
    for (int64_t r = lo; r < hi; r++) {
        if (trn_sp_row_bounds(&s, r, msg, &p0, &p1))
            return -1;
        for (int64_t p = p0; p < p1; p++)
            trn_sp_st(d->dst.rowind, p, r + d->dst.base, d->dst.idx64);
    }
    return 0;
}

static int coo_to_csr(const trn_spconvert_desc *d, trn_kmsg *msg) {
    const trn_sp_mat *a = &d->src, *c = &d->dst;
    int64_t row = 0, prev = 0, r = 0;
    trn_sp_st(c->offsets, 0, c->base, c->idx64);
    for (int64_t k = 0; k < a->nnz; k++) {
        if (index_at(a->rowind, k, a->idx64, a->base, a->rows, &r, msg, (uint64_t)k, "src",
                     TRN_SP_COO, TRN_SP_ROWIND, ""))
            return -1;
        if (r < prev) {
            trn_kmsg_post(msg, (uint64_t)k, 1,
                          "src: cooRowInd[%lld] = %lld is less than cooRowInd[%lld] = %lld (row "
                          "indices must be sorted)",
                          (long long)k, (long long)r + a->base, (long long)k - 1,
                          (long long)prev + a->base);
            return -1;
        }
        prev = r;
        while (row < r)
            trn_sp_st(c->offsets, ++row, k + c->base, c->idx64);
    }
    while (row < a->rows)
        trn_sp_st(c->offsets, ++row, a->nnz + c->base, c->idx64);
    return 0;
}

/* ---- CSR -> CSC ------------------------------------------------------------------------ */

static int csr_to_csc(const trn_spconvert_desc *d, trn_kmsg *msg) {
    const trn_sp_mat *a = &d->src, *c = &d->dst;
    const trn_sp_rows s = trn_sp_rows_of(a, "src");
    const size_t es = trn_dtype_size(a->type);
    int64_t *start = scratch_i64(a->cols + 1);
    int64_t *cursor = scratch_i64(a->cols + 1);
    int rc = TRN_SP_BAD;
    if (!start || !cursor) {
        rc = trn_sp_no_memory(msg, 0, 2 * ((size_t)a->cols + 1) * sizeof(int64_t),
                              "the column starts and cursors of %lld columns", (long long)a->cols);
        goto out;
    }
    int64_t p0 = 0, p1 = 0, j = 0;
    char where[48];
    for (int pass = 0; pass < 2; pass++) {
        for (int64_t r = 0; r < a->rows; r++) {
            if (trn_sp_row_bounds(&s, r, msg, &p0, &p1))
                goto out;
            snprintf(where, sizeof(where), " (row %lld)", (long long)r);
            for (int64_t p = p0; p < p1; p++) {
                if (index_at(a->indices, p, a->idx64, a->base, a->cols, &j, msg, (uint64_t)r, "src",
                             TRN_SP_CSR, TRN_SP_INDICES, where))
                    goto out;
                if (pass == 0) {
                    start[j + 1]++;
                    continue;
                }
                /* The count pass fixed each column's range; a column index
                 * changed since then could overrun it. */
                if (cursor[j] >= start[j + 1]) {
                    trn_kmsg_post(msg, (uint64_t)r, 1,
                                  "src: csrColInd changed while the op ran (row %lld)",
                                  (long long)r);
                    goto out;
                }
                const int64_t q = cursor[j]++;
                trn_sp_st(c->indices, q, r + c->base, c->idx64);
                if (d->values)
                    copy_val(es, c->values, q, a->values, p);
            }
        }
        if (pass == 0) {
            for (int64_t k = 0; k < a->cols; k++)
                start[k + 1] += start[k];
            memcpy(cursor, start, (size_t)a->cols * sizeof(int64_t));
            for (int64_t k = 0; k <= a->cols; k++)
                trn_sp_st(c->offsets, k, start[k] + c->base, c->idx64);
        }
    }
    rc = 0;
out:
    free(start);
    free(cursor);
    return rc;
}

/* ---- CSR -> BSR ------------------------------------------------------------------------- */

static int cmp_i64(const void *a, const void *b) {
    const int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* The distinct block columns of block row I of CSR matrix a (blocks of rb
 * x cb), sorted, into list; their number in *count. stamp[J] == I marks a
 * block column already listed. */
static int block_row_columns(const trn_sp_mat *a, const trn_sp_rows *s, int64_t rb, int64_t cb,
                             int64_t I, int64_t *stamp, int64_t *list, int64_t *count,
                             trn_kmsg *msg) {
    int64_t n = 0, p0 = 0, p1 = 0, j = 0;
    char where[48];
    const int64_t r1 = (I + 1) * rb < a->rows ? (I + 1) * rb : a->rows;
    for (int64_t r = I * rb; r < r1; r++) {
        if (trn_sp_row_bounds(s, r, msg, &p0, &p1))
            return -1;
        snprintf(where, sizeof(where), " (row %lld)", (long long)r);
        for (int64_t p = p0; p < p1; p++) {
            if (index_at(a->indices, p, a->idx64, a->base, a->cols, &j, msg, (uint64_t)r, "src",
                         TRN_SP_CSR, TRN_SP_INDICES, where))
                return -1;
            if (stamp[j / cb] != I) {
                stamp[j / cb] = I;
                list[n++] = j / cb;
            }
        }
    }
    qsort(list, (size_t)n, sizeof(int64_t), cmp_i64);
    *count = n;
    return 0;
}

static int csr_to_bsr_nnz(const trn_spconvert_desc *d, trn_kmsg *msg) {
    const trn_sp_mat *a = &d->src, *c = &d->dst;
    const trn_sp_rows s = trn_sp_rows_of(a, "src");
    int64_t *stamp = scratch_i64(c->bcols);
    int64_t *list = scratch_i64(c->bcols);
    int rc = TRN_SP_BAD;
    if (!stamp || !list) {
        rc = trn_sp_no_memory(msg, 0, 2 * (size_t)c->bcols * sizeof(int64_t),
                              "the block-column marks of %lld block columns", (long long)c->bcols);
        goto out;
    }
    for (int64_t J = 0; J < c->bcols; J++)
        stamp[J] = -1;
    int64_t total = 0, n;
    trn_sp_st(c->offsets, 0, c->base, c->idx64);
    for (int64_t I = 0; I < c->brows; I++) {
        if (block_row_columns(a, &s, c->rb, c->cb, I, stamp, list, &n, msg))
            goto out;
        total += n;
        trn_sp_st(c->offsets, I + 1, total + c->base, c->idx64);
    }
    rc = 0;
out:
    free(stamp);
    free(list);
    return rc;
}

static int csr_to_bsr(const trn_spconvert_desc *d, int64_t lo, int64_t hi, int shard,
                      trn_kmsg *msg) {
    const trn_sp_mat *a = &d->src, *c = &d->dst;
    const trn_sp_rows s = trn_sp_rows_of(a, "src"), bs_rows = trn_sp_rows_of(c, "dst");
    const int64_t rb = c->rb, cb = c->cb, bsz = rb * cb;
    const size_t es = trn_dtype_size(a->type);
    int64_t *stamp = scratch_i64(c->bcols);
    int64_t *slot = scratch_i64(c->bcols);
    int64_t *list = scratch_i64(c->bcols);
    int rc = TRN_SP_BAD;
    if (!stamp || !slot || !list) {
        rc = trn_sp_no_memory(msg, shard, 3 * (size_t)c->bcols * sizeof(int64_t),
                              "the block-column marks and slots of %lld block columns",
                              (long long)c->bcols);
        goto out;
    }
    for (int64_t J = 0; J < c->bcols; J++)
        stamp[J] = -1;
    int64_t q0 = 0, q1 = 0, n = 0, p0 = 0, p1 = 0, j = 0;
    for (int64_t I = lo; I < hi; I++) {
        if (trn_sp_row_bounds(&bs_rows, I, msg, &q0, &q1) ||
            block_row_columns(a, &s, rb, cb, I, stamp, list, &n, msg))
            goto out;
        if (n != q1 - q0) {
            trn_kmsg_post(msg, (uint64_t)I, 1,
                          "dst: bsrRowOffsets give block row %lld %lld blocks but the CSR matrix "
                          "fills %lld (compute them with trnsparseXcsr2bsrNnz)",
                          (long long)I, (long long)(q1 - q0), (long long)n);
            goto out;
        }
        for (int64_t t = 0; t < n; t++) {
            trn_sp_st(c->indices, q0 + t, list[t] + c->base, c->idx64);
            slot[list[t]] = q0 + t;
        }
        memset((char *)c->values + (size_t)(q0 * bsz) * es, 0, (size_t)(n * bsz) * es);
        const int64_t r1 = (I + 1) * rb < a->rows ? (I + 1) * rb : a->rows;
        for (int64_t r = I * rb; r < r1; r++) {
            if (trn_sp_row_bounds(&s, r, msg, &p0, &p1))
                goto out;
            for (int64_t p = p0; p < p1; p++) {
                if (index_at(a->indices, p, a->idx64, a->base, a->cols, &j, msg, (uint64_t)r, "src",
                             TRN_SP_CSR, TRN_SP_INDICES, ""))
                    goto out;
                if (stamp[j / cb] != I) { /* a column that appeared since it was listed */
                    trn_kmsg_post(msg, (uint64_t)r, 1,
                                  "src: csrColInd changed while the op ran (row %lld)",
                                  (long long)r);
                    goto out;
                }
                const int64_t i = r - I * rb, jj = j % cb;
                const int64_t at =
                    slot[j / cb] * bsz + (c->block_row_major ? i * cb + jj : i + jj * rb);
                add_val(a->type, c->values, at, a->values, p);
            }
        }
    }
    rc = 0;
out:
    free(stamp);
    free(slot);
    free(list);
    return rc;
}

/* ---- BSR -> CSR ------------------------------------------------------------------------- */

static int bsr_to_csr(const trn_spconvert_desc *d, int64_t lo, int64_t hi, trn_kmsg *msg) {
    const trn_sp_mat *a = &d->src, *c = &d->dst;
    const trn_sp_rows s = trn_sp_rows_of(a, "src");
    const int64_t rb = a->rb, cb = a->cb, bsz = rb * cb;
    const size_t es = trn_dtype_size(a->type);
    int64_t p0 = 0, p1 = 0, J = 0;
    char where[48];
    for (int64_t I = lo; I < hi; I++) {
        if (trn_sp_row_bounds(&s, I, msg, &p0, &p1))
            return -1;
        const int64_t k = p1 - p0;
        if (p1 > c->nnz / bsz) {
            trn_kmsg_post(msg, (uint64_t)I, 1,
                          "dst: csrColInd and csrValues hold %lld entries but block row %lld "
                          "ends at entry %lld",
                          (long long)c->nnz, (long long)I, (long long)(p1 * bsz));
            return -1;
        }
        snprintf(where, sizeof(where), " (block row %lld)", (long long)I);
        /* Row i of the block row: cb entries from each of its k blocks. */
        for (int64_t i = 0; i < rb; i++) {
            const int64_t start = p0 * bsz + i * k * cb;
            trn_sp_st(c->offsets, I * rb + i, start + c->base, c->idx64);
            for (int64_t t = 0; t < k; t++) {
                if (index_at(a->indices, p0 + t, a->idx64, a->base, a->bcols, &J, msg, (uint64_t)I,
                             "src", TRN_SP_BSR, TRN_SP_INDICES, where))
                    return -1;
                const int64_t blk = (p0 + t) * bsz;
                for (int64_t j = 0; j < cb; j++) {
                    const int64_t q = start + t * cb + j;
                    trn_sp_st(c->indices, q, J * cb + j + c->base, c->idx64);
                    if (d->values)
                        copy_val(es, c->values, q, a->values,
                                 blk + (a->block_row_major ? i * cb + j : i + j * rb));
                }
            }
        }
        if (I == a->brows - 1)
            trn_sp_st(c->offsets, a->brows * rb, p1 * bsz + c->base, c->idx64);
    }
    if (a->brows == 0 && lo == 0)
        trn_sp_st(c->offsets, 0, c->base, c->idx64);
    return 0;
}

/* ---- dense <-> sparse --------------------------------------------------------------------- */

/* Element (i, j) of the dense matrix. */
static int64_t dense_at(const trn_dn_mat *m, int64_t i, int64_t j) {
    return m->row_major ? i * m->ld + j : i + j * m->ld;
}

/* CSR: rows of the dense matrix; CSC: its columns. */
static int dense_analysis(const trn_spconvert_desc *d) {
    const trn_sp_mat *c = &d->dst;
    const trn_dn_mat *m = &d->dense;
    const int csc = c->format == TRN_SP_CSC;
    const int64_t outer = csc ? m->cols : m->rows, inner = csc ? m->rows : m->cols;
    int64_t total = 0;
    trn_sp_st(c->offsets, 0, c->base, c->idx64);
    for (int64_t r = 0; r < outer; r++) {
        for (int64_t k = 0; k < inner; k++)
            total += !is_zero(m->type, m->values, csc ? dense_at(m, k, r) : dense_at(m, r, k));
        trn_sp_st(c->offsets, r + 1, total + c->base, c->idx64);
    }
    return 0;
}

static int dense_convert(const trn_spconvert_desc *d, int64_t lo, int64_t hi, trn_kmsg *msg) {
    const trn_sp_mat *c = &d->dst;
    const trn_dn_mat *m = &d->dense;
    const trn_sp_rows s = trn_sp_rows_of(c, "matB");
    const int csc = c->format == TRN_SP_CSC;
    const int64_t inner = csc ? m->rows : m->cols;
    const size_t es = trn_dtype_size(m->type);
    const char *what = csc ? "column" : "row";
    int64_t p0, p1;
    for (int64_t r = lo; r < hi; r++) {
        if (trn_sp_row_bounds(&s, r, msg, &p0, &p1))
            return -1;
        int64_t found = 0;
        for (int64_t k = 0; k < inner; k++)
            found += !is_zero(m->type, m->values, csc ? dense_at(m, k, r) : dense_at(m, r, k));
        if (found != p1 - p0) {
            trn_kmsg_post(msg, (uint64_t)r, 1,
                          "matB: %s give %s %lld %lld entries but the dense matrix has %lld "
                          "(compute them with trnsparseDenseToSparse_analysis)",
                          trn_sp_array_name(c->format, TRN_SP_OFFSETS), what, (long long)r,
                          (long long)(p1 - p0), (long long)found);
            return -1;
        }
        int64_t q = p0;
        for (int64_t k = 0; k < inner; k++) {
            const int64_t at = csc ? dense_at(m, k, r) : dense_at(m, r, k);
            if (is_zero(m->type, m->values, at))
                continue;
            if (q == p1)
                break;
            trn_sp_st(c->indices, q, k + c->base, c->idx64);
            copy_val(es, c->values, q++, m->values, at);
        }
        if (q != p1) {
            trn_kmsg_post(msg, (uint64_t)r, 1, "matA changed while the op ran (%s %lld)", what,
                          (long long)r);
            return -1;
        }
    }
    return 0;
}

static int sparse_to_dense(const trn_spconvert_desc *d, trn_kmsg *msg) {
    const trn_sp_mat *a = &d->src;
    const trn_dn_mat *m = &d->dense;
    const size_t es = trn_dtype_size(m->type);
    for (int64_t j = 0; j < m->cols; j++)
        for (int64_t i = 0; i < m->rows; i++)
            memset((char *)m->values + (size_t)dense_at(m, i, j) * es, 0, es);
    int64_t p0 = 0, p1 = 0, i = 0, j = 0;
    char where[48];
    if (a->format == TRN_SP_COO) {
        for (int64_t p = 0; p < a->nnz; p++) {
            if (index_at(a->rowind, p, a->idx64, a->base, a->rows, &i, msg, (uint64_t)p, "matA",
                         TRN_SP_COO, TRN_SP_ROWIND, "") ||
                index_at(a->indices, p, a->idx64, a->base, a->cols, &j, msg, (uint64_t)p, "matA",
                         TRN_SP_COO, TRN_SP_INDICES, ""))
                return -1;
            add_val(m->type, m->values, dense_at(m, i, j), a->values, p);
        }
        return 0;
    }
    const trn_sp_rows s = trn_sp_rows_of(a, "matA");
    const int64_t rb = a->rb, cb = a->cb;
    for (int64_t r = 0; r < s.nrows; r++) {
        if (trn_sp_row_bounds(&s, r, msg, &p0, &p1))
            return -1;
        snprintf(where, sizeof(where), " (%s %lld)", a->format == TRN_SP_CSC ? "column" : "row",
                 (long long)r);
        for (int64_t p = p0; p < p1; p++) {
            if (index_at(a->indices, p, a->idx64, a->base, s.ncols, &j, msg, (uint64_t)r, "matA",
                         a->format, TRN_SP_INDICES, where))
                return -1;
            if (a->format == TRN_SP_CSR)
                add_val(m->type, m->values, dense_at(m, r, j), a->values, p);
            else if (a->format == TRN_SP_CSC)
                add_val(m->type, m->values, dense_at(m, j, r), a->values, p);
            else /* BSR block (r, j) */
                for (int64_t bi = 0; bi < rb; bi++)
                    for (int64_t bj = 0; bj < cb; bj++)
                        add_val(m->type, m->values, dense_at(m, r * rb + bi, j * cb + bj),
                                a->values,
                                p * rb * cb + (a->block_row_major ? bi * cb + bj : bi + bj * rb));
        }
    }
    return 0;
}

/* ---- dispatch ----------------------------------------------------------------------- */

trn_kstatus trn_cpu_spconvert(const trn_spconvert_desc *d, trn_kmsg *msg, int shard, int nshards) {
    int64_t parts, lo = 0, hi = 0;
    const trn_sp_split split = trn_spconvert_split(d, &parts);
    if (split == TRN_SP_SPLIT_NONE && shard != 0)
        return TRN_KSTATUS_OK;
    if (split == TRN_SP_SPLIT_ROWS) {
        if (d->fn == TRN_SPC_CSR_TO_COO || d->fn == TRN_SPC_BSR_TO_CSR) {
            const trn_sp_rows s = trn_sp_rows_of(&d->src, "src");
            trn_sp_row_split(&s, shard, nshards, &lo, &hi);
        } else {
            size_t l, h;
            trn_cpu_shard_range((size_t)parts, shard, nshards, &l, &h);
            lo = (int64_t)l;
            hi = (int64_t)h;
        }
    }
    int rc = 0;
    switch (d->fn) {
    case TRN_SPC_CSR_TO_COO: rc = csr_to_coo(d, lo, hi, msg); break;
    case TRN_SPC_COO_TO_CSR: rc = coo_to_csr(d, msg); break;
    case TRN_SPC_CSR_TO_CSC: rc = csr_to_csc(d, msg); break;
    case TRN_SPC_CSR_TO_BSR_NNZ: rc = csr_to_bsr_nnz(d, msg); break;
    case TRN_SPC_CSR_TO_BSR: rc = csr_to_bsr(d, lo, hi, shard, msg); break;
    case TRN_SPC_BSR_TO_CSR: rc = bsr_to_csr(d, lo, hi, msg); break;
    case TRN_SPC_DENSE_TO_SPARSE_ANALYSIS: rc = dense_analysis(d); break;
    case TRN_SPC_DENSE_TO_SPARSE:
        rc = d->dst.format == TRN_SP_BELL ? trn_cpu_dense_to_bell(d, lo, hi, msg)
                                          : dense_convert(d, lo, hi, msg);
        break;
    case TRN_SPC_SPARSE_TO_DENSE: rc = sparse_to_dense(d, msg); break;
    }
    return trn_sp_status(rc);
}

/* The backend's entries (cpu_kernels.h). */
TRN_CPU_ENTRY(spconvert, trn_cpu_spconvert(&op->u.spconvert, op->kmsg, shard, nshards))
