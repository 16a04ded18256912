/*
 * test_sparse_x.c — trnsparseSpMV and trnsparseSpMM on complex (C_32F,
 * C_64F) and 16-bit (R_16F, R_16BF with computeType R_32F) values, and the
 * complex legacy BSR products (trnsparseCbsrmv, Zbsrmv, Cbsrmm, Zbsrmm),
 * through a real daemon over the local transport and gRPC over TCP,
 * against scipy.sparse in complex128 (sparse_x_ref.py under Debian's
 * python3, one run for all the products of a test):
 *
 *  - One random 10 x 8 matrix per product (about 35% stored, row 3 empty)
 *    in every format: CSR, CSC, COO, BSR (2 x 2 blocks, by rows and by
 *    columns), Blocked-ELL (3 x 3 blocks: edge blocks cut at 10 and 8
 *    elements, padding slots), Sliced-ELL (slices of 4, padding, a
 *    partial last slice); index base 0 and 1, 32- and 64-bit indices;
 *    opA N, T and C (ELL: N only, as cuSPARSE); SpMV and SpMM with opB N,
 *    T and C and B, C column- or row-major with padded leading dimensions;
 *    beta = 0 with C holding NaN (not read), complex alpha and beta,
 *    alpha = 0 (A not read); a strided batch of two CSR matrices.
 *  - Bounds (Higham §3.1, §3.6): an output is alpha s + beta c with s a
 *    sum of at most k = op(A)'s inner dimension products. In complex
 *    arithmetic each product has |error| <= sqrt(2) gamma_2 |a||b|, so
 *    |y - y_ref| <= sqrt(2) gamma_{k+4} (|alpha| |op(A)| |op(B)| + |beta|
 *    |C|) elementwise (k additions, the products, alpha's product and the
 *    beta term), u = 2^-24 (C_32F) or 2^-53 (C_64F); the reference is
 *    complex128 (its own error, at most sqrt(2) gamma_{k+4} in 2^-53,
 *    sits far below the C_32F bound and is added for C_64F).
 *  - 16-bit values: the reference is the float64 product of the widened
 *    stored values; the kernel computes in FP32 and rounds once, so
 *    |y - y_ref| <= u16 |y_ref| + (1 + u16) gamma_{k+2}(2^-24) (|alpha|
 *    |A||B| + |beta||C|) + 2^-25 (binary16's subnormal spacing is 2^-24),
 *    u16 = 2^-11 (R_16F) or 2^-8 (R_16BF). Includes the Blocked-ELL half
 *    product of NVIDIA's spmm_blockedell sample (A, B, C half, R_32F).
 *  - Bad input: computeType not matching (NOT_SUPPORTED), a half matrix
 *    with computeType R_16F, a C_64F B with a C_32F A,
 *    a Blocked-ELL A with opA C, a complex screened SpMM (NOT_SUPPORTED),
 *    an out-of-range column index (the op fails at the next
 *    synchronisation, naming the array and position); the daemon keeps
 *    serving.
 *  - Shards: a 1500 x 1000 COO SpMM (C_64F with opA C, C_32F, R_16F with
 *    opA T) split over 2 cores gives bitwise the 1-core result.
 *  - trnsparse<t>gemvi (S, D, C, Z; transA N and T; base 0 and 1; beta 0
 *    with y holding NaN): y = alpha op(A) x + beta y with A 9 x 7 at a
 *    padded lda and x about half full, positions in descending order,
 *    checked as x^T op(A)^T + beta y^T against the same reference and
 *    bound (real types: the complex bound, which holds a fortiori);
 *    transA C, a small lda, a NULL handle and a position past n.
 */
#include <complex.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* cmocka.h needs these before it; keep the order. */
// clang-format off
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
// clang-format on

#include "harness.h"
#include "sparse_util.h"
#include "trnsci/trn_fp16.h"
#include "trnsci/trnsparse.h"

static th_daemon one_core, two_cores;
static char tmp_dir[256]; /* files for sparse_x_ref.py */
static su_transport local_t = {"local", NULL}, grpc_t = {"grpc", NULL};

enum { M = 10, K = 8, N = 5, MAXB = 2 };

static size_t esize(trnsciDataType t) {
    return t == TRNSCI_C_64F                        ? 16
           : t == TRNSCI_C_32F || t == TRNSCI_R_64F ? 8
           : t == TRNSCI_R_32F                      ? 4
                                                    : 2;
}

static int is_half(trnsciDataType t) {
    return t == TRNSCI_R_16F || t == TRNSCI_R_16BF;
}

static int is_real(trnsciDataType t) {
    return t != TRNSCI_C_32F && t != TRNSCI_C_64F;
}

static void put(void *a, size_t i, double complex v, trnsciDataType t) {
    switch (t) {
    case TRNSCI_C_64F:
        ((double *)a)[2 * i] = creal(v);
        ((double *)a)[2 * i + 1] = cimag(v);
        break;
    case TRNSCI_C_32F:
        ((float *)a)[2 * i] = (float)creal(v);
        ((float *)a)[2 * i + 1] = (float)cimag(v);
        break;
    case TRNSCI_R_64F: ((double *)a)[i] = creal(v); break;
    case TRNSCI_R_32F: ((float *)a)[i] = (float)creal(v); break;
    case TRNSCI_R_16F: ((trnsciHalf *)a)[i] = trnsciFloatToHalf((float)creal(v)); break;
    default: ((trnsciBfloat16 *)a)[i] = trnsciFloatToBfloat16((float)creal(v)); break;
    }
}

static double complex get(const void *a, size_t i, trnsciDataType t) {
    switch (t) {
    case TRNSCI_C_64F: return CMPLX(((const double *)a)[2 * i], ((const double *)a)[2 * i + 1]);
    case TRNSCI_C_32F: return CMPLX(((const float *)a)[2 * i], ((const float *)a)[2 * i + 1]);
    case TRNSCI_R_64F: return ((const double *)a)[i];
    case TRNSCI_R_32F: return ((const float *)a)[i];
    case TRNSCI_R_16F: return trnsciHalfToFloat(((const trnsciHalf *)a)[i]);
    default: return trnsciBfloat16ToFloat(((const trnsciBfloat16 *)a)[i]);
    }
}

/* A random value of the type (exactly representable in it). */
static double complex rnd(uint64_t *s, trnsciDataType t) {
    unsigned char tmp[16];
    const double re = su_uniform(s), im = su_uniform(s);
    put(tmp, 0, CMPLX(re, is_real(t) ? 0.0 : im), t);
    return get(tmp, 0, t);
}

typedef struct xcase {
    trnsciDataType t;
    trnsparseFormat_t fmt;
    int opa, opb; /* 0 N, 1 T, 2 C */
    int mv;       /* SpMV (else SpMM) */
    int rowb, rowc, beta0, alpha0, base, idx64, rowdir, batch, legacy;
} xcase;

/* A product waiting for the reference. */
typedef struct pending {
    xcase c;
    int id;
    int64_t mo, n, ki;
    void *out; /* C as the daemon left it (host copy), batch entries back to back */
    int64_t ldc, strc;
} pending;

static pending pend[512];
static int npend, nextid;
static FILE *cases;

static void *alloc0(size_t n) {
    void *p = calloc(n ? n : 1, 1);
    assert_non_null(p);
    return p;
}

static void set_idx(void *a, size_t k, int64_t v, int idx64) {
    su_set_idx(a, k, v, idx64);
}

/* Host arrays of a format built from dense A (row-major M x K, zeros where
 * nothing is stored) and its mask. */
typedef struct built {
    void *off, *idx, *row, *val;
    size_t noff, nidx, nval; /* elements */
    int64_t nnz, ellcols, vsize, nslices;
} built;

static void build(const xcase *c, const double complex *a, const unsigned char *mask, built *b) {
    memset(b, 0, sizeof(*b));
    const size_t is = c->idx64 ? 8 : 4, es = esize(c->t);
    const int base = c->base;
    switch (c->fmt) {
    case TRNSPARSE_FORMAT_CSR:
    case TRNSPARSE_FORMAT_COO:
    case TRNSPARSE_FORMAT_CSC: {
        const int csc = c->fmt == TRNSPARSE_FORMAT_CSC;
        const int outer = csc ? K : M, inner = csc ? M : K;
        b->off = alloc0((size_t)(outer + 1) * is);
        b->idx = alloc0((size_t)M * K * is);
        b->row = alloc0((size_t)M * K * is);
        b->val = alloc0((size_t)M * K * es);
        int64_t p = 0;
        for (int o = 0; o < outer; o++) {
            set_idx(b->off, (size_t)o, p + base, c->idx64);
            for (int q = 0; q < inner; q++) {
                const int i = csc ? q : o, j = csc ? o : q;
                if (!mask[i * K + j])
                    continue;
                set_idx(b->idx, (size_t)p, (csc ? i : j) + base, c->idx64);
                set_idx(b->row, (size_t)p, i + base, c->idx64);
                put(b->val, (size_t)p, a[i * K + j], c->t);
                p++;
            }
        }
        set_idx(b->off, (size_t)outer, p + base, c->idx64);
        b->nnz = p;
        b->noff = (size_t)outer + 1;
        b->nidx = b->nval = (size_t)p;
        break;
    }
    case TRNSPARSE_FORMAT_BSR: { /* 2 x 2 blocks: 5 x 4 */
        const int bs = 2, br = M / bs, bc = K / bs;
        b->off = alloc0((size_t)(br + 1) * is);
        b->idx = alloc0((size_t)br * bc * is);
        b->val = alloc0((size_t)br * bc * bs * bs * es);
        int64_t p = 0;
        for (int Ib = 0; Ib < br; Ib++) {
            set_idx(b->off, (size_t)Ib, p + base, c->idx64);
            for (int J = bc - 1; J >= 0; J--) { /* columns in descending order */
                int any = 0;
                for (int ii = 0; ii < bs; ii++)
                    for (int jj = 0; jj < bs; jj++)
                        any |= mask[(Ib * bs + ii) * K + J * bs + jj];
                if (!any)
                    continue;
                set_idx(b->idx, (size_t)p, J + base, c->idx64);
                for (int ii = 0; ii < bs; ii++)
                    for (int jj = 0; jj < bs; jj++)
                        put(b->val, (size_t)(p * 4 + (c->rowdir ? ii * bs + jj : ii + jj * bs)),
                            a[(Ib * bs + ii) * K + J * bs + jj], c->t);
                p++;
            }
        }
        set_idx(b->off, (size_t)br, p + base, c->idx64);
        b->nnz = p;
        b->noff = (size_t)br + 1;
        b->nidx = (size_t)p;
        b->nval = (size_t)p * 4;
        break;
    }
    case TRNSPARSE_FORMAT_BLOCKED_ELL: { /* 3 x 3 blocks: 4 x 3, edges cut */
        const int bs = 3, br = (M + bs - 1) / bs, bc = (K + bs - 1) / bs;
        int cols[4][3], cnt[4] = {0}, slots = 0;
        for (int Ib = 0; Ib < br; Ib++) {
            for (int J = 0; J < bc; J++) {
                int any = 0;
                for (int i = Ib * bs; i < Ib * bs + bs && i < M; i++)
                    for (int j = J * bs; j < J * bs + bs && j < K; j++)
                        any |= mask[i * K + j];
                if (any)
                    cols[Ib][cnt[Ib]++] = J;
            }
            slots = cnt[Ib] > slots ? cnt[Ib] : slots;
        }
        slots += slots < bc; /* a padding slot in every block row (room permitting) */
        b->ellcols = (int64_t)slots * bs;
        b->idx = alloc0((size_t)br * slots * is);
        b->val = alloc0((size_t)M * b->ellcols * es);
        for (int Ib = 0; Ib < br; Ib++)
            for (int s = 0; s < slots; s++) {
                const int J = s < cnt[Ib] ? cols[Ib][s] : -1;
                set_idx(b->idx, (size_t)(Ib * slots + s), J < 0 ? -1 : J + base, c->idx64);
                for (int i = Ib * bs; i < Ib * bs + bs && i < M; i++)
                    for (int jj = 0; jj < bs; jj++) {
                        const int j = J * bs + jj;
                        put(b->val, (size_t)(i * b->ellcols + s * bs + jj),
                            J >= 0 && j < K ? a[i * K + j] : 0.0, c->t);
                    }
            }
        b->nidx = (size_t)br * slots;
        b->nval = (size_t)M * b->ellcols;
        break;
    }
    default: { /* Sliced-ELL, slices of 4 */
        const int S = 4, ns = (M + S - 1) / S;
        b->nslices = ns;
        b->off = alloc0((size_t)(ns + 1) * is);
        b->idx = alloc0((size_t)ns * S * (K + 1) * is);
        b->val = alloc0((size_t)ns * S * (K + 1) * es);
        int64_t p = 0, nnz = 0;
        for (int s = 0; s < ns; s++) {
            set_idx(b->off, (size_t)s, p + base, c->idx64);
            int w = 0;
            for (int r = 0; r < S && s * S + r < M; r++) {
                int cnt = 0;
                for (int j = 0; j < K; j++)
                    cnt += mask[(s * S + r) * K + j];
                w = cnt > w ? cnt : w;
            }
            w += s == 0; /* a padding column in the first slice */
            for (int r = 0; r < S; r++) {
                const int i = s * S + r;
                int kk = 0;
                for (int j = 0; i < M && j < K; j++)
                    if (mask[i * K + j]) {
                        set_idx(b->idx, (size_t)(p + kk * S + r), j + base, c->idx64);
                        put(b->val, (size_t)(p + kk * S + r), a[i * K + j], c->t);
                        kk++;
                        nnz++;
                    }
                for (; kk < w; kk++)
                    set_idx(b->idx, (size_t)(p + kk * S + r), -1, c->idx64);
            }
            p += (int64_t)w * S;
        }
        set_idx(b->off, (size_t)ns, p + base, c->idx64);
        b->nnz = nnz;
        b->vsize = p;
        b->noff = (size_t)ns + 1;
        b->nidx = b->nval = (size_t)p;
        break;
    }
    }
}

static void free_built(built *b) {
    free(b->off);
    free(b->idx);
    free(b->row);
    free(b->val);
}

/* Concatenated batch arrays (one structure, values per entry). */
static void *cat(void *const *parts, int n, size_t bytes) {
    char *p = alloc0((size_t)n * bytes);
    for (int i = 0; i < n; i++)
        memcpy(p + (size_t)i * bytes, parts[i], bytes);
    return p;
}

static void write_c128(const char *name, int id, const double complex *v, size_t n) {
    char f[64];
    snprintf(f, sizeof(f), "%s_%d", name, id);
    su_write_file(tmp_dir, f, v, n * sizeof(double complex));
}

static const trnsparseOperation_t ops[3] = {TRNSPARSE_OPERATION_NON_TRANSPOSE,
                                            TRNSPARSE_OPERATION_TRANSPOSE,
                                            TRNSPARSE_OPERATION_CONJUGATE_TRANSPOSE};

static void run_case(trnsparseHandle_t h, const xcase *c0, uint64_t seed) {
    xcase cv = *c0;
    if (cv.mv) /* vectors are contiguous */
        cv.rowb = cv.rowc = 0;
    const xcase *c = &cv;
    uint64_t s = seed;
    const trnsciDataType t = c->t;
    const size_t es = esize(t), is = c->idx64 ? 8 : 4;
    const int nb = c->batch > 1 ? c->batch : 1;
    const int64_t mo = c->opa ? K : M, ki = c->opa ? M : K, n = c->mv ? 1 : N;
    unsigned char mask[M * K];
    for (int i = 0; i < M * K; i++)
        mask[i] = i / K != 3 && su_uniform(&s) < -0.3;
    built bl[MAXB];
    double complex a[MAXB][M * K];
    for (int q = 0; q < nb; q++) {
        for (int i = 0; i < M * K; i++)
            a[q][i] = mask[i] ? rnd(&s, t) : 0.0;
        build(c, a[q], mask, &bl[q]);
    }
    /* B: op(B) is ki x n; stored ki x n (op N) or n x ki, padded ld. */
    const int64_t brows = c->opb ? n : ki, bcols = c->opb ? ki : n;
    const int64_t ldb = (c->rowb ? bcols : brows) + 1, bspan = (c->rowb ? brows : bcols) * ldb;
    const int64_t ldc = (c->rowc ? n : mo) + (c->mv ? 0 : 2),
                  cspan = c->mv ? mo : (c->rowc ? mo : n) * ldc;
    void *hb = alloc0((size_t)(nb * bspan) * es), *hc = alloc0((size_t)(nb * cspan) * es);
    double complex *rb = alloc0((size_t)(brows * bcols) * sizeof(double complex));
    double complex *rc = alloc0((size_t)(mo * n) * sizeof(double complex));
    const double complex alpha = c->alpha0 ? 0.0 : is_half(t) ? 0.75 : CMPLX(0.75, -0.5);
    const double complex beta = c->beta0 ? 0.0 : is_half(t) ? -0.5 : CMPLX(-0.25, 1.0);
    for (int q = 0; q < nb; q++) {
        for (int64_t i = 0; i < brows; i++)
            for (int64_t j = 0; j < bcols; j++) {
                const double complex v = rnd(&s, t);
                put(hb, (size_t)(q * bspan + (c->rowb ? i * ldb + j : i + j * ldb)), v, t);
                rb[i * bcols + j] = v;
            }
        for (int64_t i = 0; i < mo; i++)
            for (int64_t j = 0; j < n; j++) {
                const double complex v = c->beta0 ? NAN : rnd(&s, t);
                put(hc, (size_t)(q * cspan + (c->rowc ? i * ldc + j : i + j * ldc)), v, t);
                rc[i * n + j] = c->beta0 ? 0.0 : v;
            }
        const int id = nextid++;
        fprintf(cases, "%d %d %d %lld %d %d %.17g %.17g %.17g %.17g\n", id, M, K, (long long)n,
                c->opa, c->opb, creal(alpha), cimag(alpha), creal(beta), cimag(beta));
        write_c128("A", id, a[q], M * K);
        write_c128("B", id, rb, (size_t)(brows * bcols));
        write_c128("C", id, rc, (size_t)(mo * n));
        if (q == 0) {
            pending *p = &pend[npend++];
            assert_true(npend < (int)(sizeof(pend) / sizeof(pend[0])));
            *p = (pending){*c, id, mo, n, ki, NULL, ldc, cspan};
        }
    }
    void *d_off = NULL, *d_idx = NULL, *d_row = NULL, *d_val = NULL;
    {
        void *offs[MAXB], *vals[MAXB];
        for (int q = 0; q < nb; q++)
            offs[q] = bl[q].off, vals[q] = bl[q].val;
        if (bl[0].off) {
            void *o = cat(offs, nb, bl[0].noff * is);
            d_off = su_dev_put(o, (size_t)nb * bl[0].noff * is);
            free(o);
        }
        void *v = cat(vals, nb, bl[0].nval * es);
        d_val = c->alpha0 ? NULL : su_dev_put(v, (size_t)nb * bl[0].nval * es);
        free(v);
        void *idxs[MAXB];
        for (int q = 0; q < nb; q++)
            idxs[q] = bl[q].idx;
        void *ix = cat(idxs, nb, bl[0].nidx * is);
        d_idx = su_dev_put(ix, (size_t)nb * bl[0].nidx * is);
        free(ix);
        if (c->fmt == TRNSPARSE_FORMAT_COO)
            d_row = su_dev_put(bl[0].row, bl[0].nidx * is);
    }
    void *d_b = su_dev_put(hb, (size_t)(nb * bspan) * es);
    void *d_c = su_dev_put(hc, (size_t)(nb * cspan) * es);
    const trnsparseIndexType_t it = c->idx64 ? TRNSPARSE_INDEX_64I : TRNSPARSE_INDEX_32I;
    const trnsparseIndexBase_t ib = c->base ? TRNSPARSE_INDEX_BASE_ONE : TRNSPARSE_INDEX_BASE_ZERO;
    const trnsciDataType ct = is_half(t) ? TRNSCI_R_32F : t;
    unsigned char al[16], be[16];
    if (ct == TRNSCI_R_32F) {
        ((float *)al)[0] = (float)creal(alpha);
        ((float *)be)[0] = (float)creal(beta);
    } else {
        put(al, 0, alpha, ct);
        put(be, 0, beta, ct);
    }
    trnsparseStatus_t st;
    char why[512] = "";
    if (c->legacy) { /* Cbsrmv, Zbsrmv, Cbsrmm, Zbsrmm (32-bit, op N, column-major) */
        trnsparseMatDescr_t descr;
        assert_int_equal(trnsparseCreateMatDescr(&descr), TRNSPARSE_STATUS_SUCCESS);
        assert_int_equal(trnsparseSetMatIndexBase(descr, ib), TRNSPARSE_STATUS_SUCCESS);
        const trnsparseDirection_t dir =
            c->rowdir ? TRNSPARSE_DIRECTION_ROW : TRNSPARSE_DIRECTION_COLUMN;
        const int mb = M / 2, kb = K / 2, nnzb = (int)bl[0].nnz;
        if (c->mv && t == TRNSCI_C_32F)
            st = trnsparseCbsrmv(h, dir, ops[0], mb, kb, nnzb, (const trnComplex *)al, descr, d_val,
                                 d_off, d_idx, 2, d_b, (const trnComplex *)be, d_c);
        else if (c->mv)
            st = trnsparseZbsrmv(h, dir, ops[0], mb, kb, nnzb, (const trnDoubleComplex *)al, descr,
                                 d_val, d_off, d_idx, 2, d_b, (const trnDoubleComplex *)be, d_c);
        else if (t == TRNSCI_C_32F)
            st = trnsparseCbsrmm(h, dir, ops[0], ops[c->opb], mb, (int)n, kb, nnzb,
                                 (const trnComplex *)al, descr, d_val, d_off, d_idx, 2, d_b,
                                 (int)ldb, (const trnComplex *)be, d_c, (int)ldc);
        else
            st = trnsparseZbsrmm(h, dir, ops[0], ops[c->opb], mb, (int)n, kb, nnzb,
                                 (const trnDoubleComplex *)al, descr, d_val, d_off, d_idx, 2, d_b,
                                 (int)ldb, (const trnDoubleComplex *)be, d_c, (int)ldc);
        snprintf(why, sizeof(why), "%s", trnsciGetLastErrorMessage());
        trnsparseDestroyMatDescr(descr);
    } else {
        trnsparseSpMatDescr_t A;
        switch (c->fmt) {
        case TRNSPARSE_FORMAT_CSR:
            st = trnsparseCreateCsr(&A, M, K, bl[0].nnz, d_off, d_idx, d_val, it, it, ib, t);
            if (nb > 1)
                trnsparseCsrSetStridedBatch(A, nb, (int64_t)bl[0].noff, bl[0].nnz);
            break;
        case TRNSPARSE_FORMAT_CSC:
            st = trnsparseCreateCsc(&A, M, K, bl[0].nnz, d_off, d_idx, d_val, it, it, ib, t);
            break;
        case TRNSPARSE_FORMAT_COO:
            st = trnsparseCreateCoo(&A, M, K, bl[0].nnz, d_row, d_idx, d_val, it, ib, t);
            break;
        case TRNSPARSE_FORMAT_BSR:
            st = trnsparseCreateBsr(&A, M / 2, K / 2, bl[0].nnz, 2, 2, d_off, d_idx, d_val, it, it,
                                    ib, t, c->rowdir ? TRNSPARSE_ORDER_ROW : TRNSPARSE_ORDER_COL);
            break;
        case TRNSPARSE_FORMAT_BLOCKED_ELL:
            st = trnsparseCreateBlockedEll(&A, M, K, 3, bl[0].ellcols, d_idx, d_val, it, ib, t);
            break;
        default:
            st = trnsparseCreateSlicedEll(&A, M, K, bl[0].nnz, bl[0].vsize, 4, d_off, d_idx, d_val,
                                          it, it, ib, t);
            break;
        }
        assert_int_equal(st, TRNSPARSE_STATUS_SUCCESS);
        size_t bsize = 1;
        if (c->mv) {
            trnsparseDnVecDescr_t x, y;
            assert_int_equal(trnsparseCreateDnVec(&x, ki, d_b, t), TRNSPARSE_STATUS_SUCCESS);
            assert_int_equal(trnsparseCreateDnVec(&y, mo, d_c, t), TRNSPARSE_STATUS_SUCCESS);
            assert_int_equal(trnsparseSpMV_bufferSize(h, ops[c->opa], al, A, x, be, y, ct,
                                                      TRNSPARSE_SPMV_ALG_DEFAULT, &bsize),
                             TRNSPARSE_STATUS_SUCCESS);
            assert_int_equal(bsize, 0);
            st = trnsparseSpMV(h, ops[c->opa], al, A, x, be, y, ct, TRNSPARSE_SPMV_ALG_DEFAULT,
                               NULL);
            snprintf(why, sizeof(why), "%s", trnsciGetLastErrorMessage());
            trnsparseDestroyDnVec(x);
            trnsparseDestroyDnVec(y);
        } else {
            trnsparseDnMatDescr_t B, C;
            const trnsparseOrder_t ob = c->rowb ? TRNSPARSE_ORDER_ROW : TRNSPARSE_ORDER_COL;
            const trnsparseOrder_t oc = c->rowc ? TRNSPARSE_ORDER_ROW : TRNSPARSE_ORDER_COL;
            assert_int_equal(trnsparseCreateDnMat(&B, brows, bcols, ldb, d_b, t, ob),
                             TRNSPARSE_STATUS_SUCCESS);
            assert_int_equal(trnsparseCreateDnMat(&C, mo, n, ldc, d_c, t, oc),
                             TRNSPARSE_STATUS_SUCCESS);
            if (nb > 1) {
                trnsparseDnMatSetStridedBatch(B, nb, bspan);
                trnsparseDnMatSetStridedBatch(C, nb, cspan);
            }
            assert_int_equal(trnsparseSpMM_bufferSize(h, ops[c->opa], ops[c->opb], al, A, B, be, C,
                                                      ct, TRNSPARSE_SPMM_ALG_DEFAULT, &bsize),
                             TRNSPARSE_STATUS_SUCCESS);
            assert_int_equal(trnsparseSpMM_preprocess(h, ops[c->opa], ops[c->opb], al, A, B, be, C,
                                                      ct, TRNSPARSE_SPMM_ALG_DEFAULT, NULL),
                             TRNSPARSE_STATUS_SUCCESS);
            st = trnsparseSpMM(h, ops[c->opa], ops[c->opb], al, A, B, be, C, ct,
                               TRNSPARSE_SPMM_ALG_DEFAULT, NULL);
            snprintf(why, sizeof(why), "%s", trnsciGetLastErrorMessage());
            trnsparseDestroyDnMat(B);
            trnsparseDestroyDnMat(C);
        }
        trnsparseDestroySpMat(A);
    }
    if (st != TRNSPARSE_STATUS_SUCCESS)
        fail_msg("case type %d format %d opA %d opB %d mv %d: status %d: %s", (int)t, (int)c->fmt,
                 c->opa, c->opb, c->mv, (int)st, why);
    pend[npend - 1].out = su_dev_get(d_c, (size_t)(nb * cspan) * es);
    for (int q = 0; q < nb; q++)
        free_built(&bl[q]);
    trnsciFree(d_off);
    trnsciFree(d_idx);
    trnsciFree(d_row);
    trnsciFree(d_val);
    trnsciFree(d_b);
    trnsciFree(d_c);
    free(hb);
    free(hc);
    free(rb);
    free(rc);
}

/* gamma_k for unit roundoff u. */
static double gam(double u, double k) {
    return k * u / (1.0 - k * u);
}

/* Runs the reference over every pending product and checks each. */
static void check_all(void) {
    fclose(cases);
    cases = NULL;
    su_run_ref(PYTHON3, SPARSE_X_REF_PY, "spmm", tmp_dir);
    double worst = 0.0;
    for (int q = 0; q < npend; q++) {
        const pending *p = &pend[q];
        const xcase *c = &p->c;
        const int nb = c->batch > 1 ? c->batch : 1;
        for (int b = 0; b < nb; b++) {
            char f[64];
            size_t bytes;
            snprintf(f, sizeof(f), "R_%d", p->id + b);
            double complex *r = su_read_file(tmp_dir, f, &bytes);
            assert_int_equal(bytes, (size_t)(p->mo * p->n) * sizeof(double complex));
            snprintf(f, sizeof(f), "E_%d", p->id + b);
            double *e = su_read_file(tmp_dir, f, &bytes);
            for (int64_t i = 0; i < p->mo; i++)
                for (int64_t j = 0; j < p->n; j++) {
                    const size_t at =
                        (size_t)(b * p->strc + (c->rowc ? i * p->ldc + j : i + j * p->ldc));
                    const double complex got = get(p->out, at, c->t);
                    const double complex want = r[i * p->n + j];
                    const double scale = e[i * p->n + j];
                    double bound;
                    if (is_half(c->t)) {
                        const double u16 = c->t == TRNSCI_R_16F ? 0x1p-11 : 0x1p-8;
                        bound = u16 * cabs(want) +
                                (1 + u16) * gam(0x1p-24, (double)p->ki + 2) * scale + 0x1p-25;
                    } else {
                        const double u =
                            c->t == TRNSCI_C_32F || c->t == TRNSCI_R_32F ? 0x1p-24 : 0x1p-53;
                        bound = sqrt(2.0) *
                                (gam(u, (double)p->ki + 4) + gam(0x1p-53, (double)p->ki + 4)) *
                                scale;
                    }
                    const double err = cabs(got - want);
                    if (!(err <= bound))
                        fail_msg("type %d format %d opA %d opB %d mv %d rowb %d rowc %d beta0 %d "
                                 "alpha0 %d legacy %d batch %d/%d: C(%lld, %lld) = %.9g%+.9gi, "
                                 "reference %.9g%+.9gi, error %.3g > %.3g",
                                 (int)c->t, (int)c->fmt, c->opa, c->opb, c->mv, c->rowb, c->rowc,
                                 c->beta0, c->alpha0, c->legacy, b, nb, (long long)i, (long long)j,
                                 creal(got), cimag(got), creal(want), cimag(want), err, bound);
                    if (bound > 0 && err / bound > worst)
                        worst = err / bound;
                }
            free(r);
            free(e);
        }
        free(p->out);
    }
    printf("    %d products, worst error / bound %.3g\n", npend, worst);
    npend = 0;
}

static void open_cases(void) {
    char path[300];
    snprintf(path, sizeof(path), "%s/cases.txt", tmp_dir);
    cases = fopen(path, "w");
    assert_non_null(cases);
    npend = 0;
    nextid = 0;
}

static void test_complex(void **state) {
    assert_int_equal(trnsciInit(su_addr(state)), trnsciSuccess);
    trnsparseHandle_t h;
    assert_int_equal(trnsparseCreate(&h), TRNSPARSE_STATUS_SUCCESS);
    open_cases();
    static const trnsparseFormat_t fmts[] = {
        TRNSPARSE_FORMAT_CSR, TRNSPARSE_FORMAT_CSC,         TRNSPARSE_FORMAT_COO,
        TRNSPARSE_FORMAT_BSR, TRNSPARSE_FORMAT_BLOCKED_ELL, TRNSPARSE_FORMAT_SLICED_ELLPACK};
    uint64_t seed = 11;
    int v = 0;
    for (int ti = 0; ti < 2; ti++) {
        const trnsciDataType t = ti ? TRNSCI_C_64F : TRNSCI_C_32F;
        for (size_t f = 0; f < sizeof(fmts) / sizeof(fmts[0]); f++) {
            const int ell = fmts[f] == TRNSPARSE_FORMAT_BLOCKED_ELL ||
                            fmts[f] == TRNSPARSE_FORMAT_SLICED_ELLPACK;
            for (int opa = 0; opa < (ell ? 1 : 3); opa++)
                for (int mode = 0; mode < 4; mode++, v++) { /* SpMV, SpMM opB N, T, C */
                    const xcase c = {.t = t,
                                     .fmt = fmts[f],
                                     .opa = opa,
                                     .opb = mode ? mode - 1 : 0,
                                     .mv = mode == 0,
                                     .rowb = v % 2,
                                     .rowc = (v / 2) % 2,
                                     .beta0 = v % 5 == 1,
                                     .alpha0 = v % 17 == 3,
                                     .base = (v / 3) % 2,
                                     .idx64 = (v / 7) % 2,
                                     .rowdir = v % 2};
                    run_case(h, &c, seed++);
                }
        }
        /* The legacy BSR products. */
        for (int mode = 0; mode < 3; mode++, v++) {
            const xcase c = {.t = t,
                             .fmt = TRNSPARSE_FORMAT_BSR,
                             .opb = mode ? mode - 1 : 0,
                             .mv = mode == 0,
                             .beta0 = mode == 2,
                             .base = mode % 2,
                             .rowdir = ti,
                             .legacy = 1};
            run_case(h, &c, seed++);
        }
        /* A strided batch of two CSR matrices. */
        const xcase c = {.t = t, .fmt = TRNSPARSE_FORMAT_CSR, .opa = 2, .opb = 1, .batch = 2};
        run_case(h, &c, seed++);
    }
    check_all();
    trnsparseDestroy(h);
    assert_int_equal(trnsciDeviceReset(), trnsciSuccess);
}

static void test_half(void **state) {
    assert_int_equal(trnsciInit(su_addr(state)), trnsciSuccess);
    trnsparseHandle_t h;
    assert_int_equal(trnsparseCreate(&h), TRNSPARSE_STATUS_SUCCESS);
    open_cases();
    static const trnsparseFormat_t fmts[] = {TRNSPARSE_FORMAT_BLOCKED_ELL, TRNSPARSE_FORMAT_CSR,
                                             TRNSPARSE_FORMAT_COO, TRNSPARSE_FORMAT_SLICED_ELLPACK,
                                             TRNSPARSE_FORMAT_BSR};
    uint64_t seed = 101;
    int v = 0;
    for (int ti = 0; ti < 2; ti++)
        for (size_t f = 0; f < sizeof(fmts) / sizeof(fmts[0]); f++)
            for (int mode = 0; mode < 3; mode++, v++) {
                const int ell = fmts[f] == TRNSPARSE_FORMAT_BLOCKED_ELL ||
                                fmts[f] == TRNSPARSE_FORMAT_SLICED_ELLPACK;
                /* mode 0: the sample's SpMM (op N, both column-major... or
                 * row-major), 1: SpMM with op T, 2: SpMV. */
                const xcase c = {.t = ti ? TRNSCI_R_16BF : TRNSCI_R_16F,
                                 .fmt = fmts[f],
                                 .opa = mode == 1 && !ell,
                                 .opb = mode == 1,
                                 .mv = mode == 2,
                                 .rowb = v % 2,
                                 .rowc = v % 2,
                                 .beta0 = v % 3 == 0,
                                 .base = v % 2,
                                 .idx64 = (v / 2) % 2,
                                 .rowdir = v % 2};
                run_case(h, &c, seed++);
            }
    check_all();
    trnsparseDestroy(h);
    assert_int_equal(trnsciDeviceReset(), trnsciSuccess);
}

/* gemvi: y = alpha op(A) x + beta y, checked as the product x^T op(A)^T +
 * beta y^T (one row of the reference's SpMM). */
static void run_gemvi(trnsparseHandle_t h, trnsciDataType t, int trans, int base, int beta0,
                      uint64_t seed) {
    uint64_t s = seed;
    const int m = 9, n = 7, lda = m + 2;
    const int k = trans ? m : n, rows = trans ? n : m;
    const size_t es = esize(t);
    void *ha = alloc0((size_t)lda * n * es), *hx = alloc0((size_t)k * es),
         *hy = alloc0((size_t)rows * es);
    int *ind = alloc0((size_t)k * sizeof(int));
    double complex *xr = alloc0((size_t)k * sizeof(double complex));
    double complex *br = alloc0((size_t)k * rows * sizeof(double complex));
    double complex *yr = alloc0((size_t)rows * sizeof(double complex));
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++) {
            const double complex v = rnd(&s, t);
            put(ha, (size_t)(i + j * lda), v, t);
            /* op(A)^T (k x rows, row-major): A^T for N, A for T. */
            if (trans)
                br[i * rows + j] = v;
            else
                br[j * rows + i] = v;
        }
    int nnz = 0;
    for (int q = k - 1; q >= 0; q--) /* positions in descending order, about half */
        if (su_uniform(&s) < 0.0) {
            const double complex v = rnd(&s, t);
            ind[nnz] = q + base;
            put(hx, (size_t)nnz++, v, t);
            xr[q] = v;
        }
    for (int i = 0; i < rows; i++) {
        const double complex v = beta0 ? NAN : rnd(&s, t);
        put(hy, (size_t)i, v, t);
        yr[i] = beta0 ? 0.0 : v;
    }
    const double complex alpha = is_real(t) ? 1.25 : CMPLX(1.25, 0.5);
    const double complex beta = beta0 ? 0.0 : is_real(t) ? -0.75 : CMPLX(-0.75, 0.25);
    const int id = nextid++;
    fprintf(cases, "%d 1 %d %d 0 0 %.17g %.17g %.17g %.17g\n", id, k, rows, creal(alpha),
            cimag(alpha), creal(beta), cimag(beta));
    write_c128("A", id, xr, (size_t)k);
    write_c128("B", id, br, (size_t)(k * rows));
    write_c128("C", id, yr, (size_t)rows);
    void *d_a = su_dev_put(ha, (size_t)lda * n * es), *d_x = su_dev_put(hx, (size_t)k * es);
    void *d_i = su_dev_put(ind, (size_t)k * sizeof(int)), *d_y = su_dev_put(hy, (size_t)rows * es);
    unsigned char al[16], be[16];
    put(al, 0, alpha, t);
    put(be, 0, beta, t);
    const trnsparseOperation_t op = ops[trans];
    const trnsparseIndexBase_t ib = base ? TRNSPARSE_INDEX_BASE_ONE : TRNSPARSE_INDEX_BASE_ZERO;
    int bsize = -1;
    trnsparseStatus_t st;
    switch (t) {
    case TRNSCI_R_32F:
        assert_int_equal(trnsparseSgemvi_bufferSize(h, op, m, n, nnz, &bsize),
                         TRNSPARSE_STATUS_SUCCESS);
        st = trnsparseSgemvi(h, op, m, n, (const float *)al, d_a, lda, nnz, d_x, d_i,
                             (const float *)be, d_y, ib, NULL);
        break;
    case TRNSCI_R_64F:
        assert_int_equal(trnsparseDgemvi_bufferSize(h, op, m, n, nnz, &bsize),
                         TRNSPARSE_STATUS_SUCCESS);
        st = trnsparseDgemvi(h, op, m, n, (const double *)al, d_a, lda, nnz, d_x, d_i,
                             (const double *)be, d_y, ib, NULL);
        break;
    case TRNSCI_C_32F:
        assert_int_equal(trnsparseCgemvi_bufferSize(h, op, m, n, nnz, &bsize),
                         TRNSPARSE_STATUS_SUCCESS);
        st = trnsparseCgemvi(h, op, m, n, (const trnComplex *)al, d_a, lda, nnz, d_x, d_i,
                             (const trnComplex *)be, d_y, ib, NULL);
        break;
    default:
        assert_int_equal(trnsparseZgemvi_bufferSize(h, op, m, n, nnz, &bsize),
                         TRNSPARSE_STATUS_SUCCESS);
        st = trnsparseZgemvi(h, op, m, n, (const trnDoubleComplex *)al, d_a, lda, nnz, d_x, d_i,
                             (const trnDoubleComplex *)be, d_y, ib, NULL);
        break;
    }
    if (st != TRNSPARSE_STATUS_SUCCESS)
        fail_msg("gemvi type %d trans %d: status %d: %s", (int)t, trans, (int)st,
                 trnsciGetLastErrorMessage());
    assert_int_equal(bsize, 0);
    pending *p = &pend[npend++];
    *p = (pending){{.t = t, .fmt = TRNSPARSE_FORMAT_COO, .mv = 1, .beta0 = beta0, .base = base},
                   id,
                   1,
                   rows,
                   k,
                   su_dev_get(d_y, (size_t)rows * es),
                   1,
                   0};
    trnsciFree(d_a);
    trnsciFree(d_x);
    trnsciFree(d_i);
    trnsciFree(d_y);
    free(ha);
    free(hx);
    free(hy);
    free(ind);
    free(xr);
    free(br);
    free(yr);
}

static void test_gemvi(void **state) {
    assert_int_equal(trnsciInit(su_addr(state)), trnsciSuccess);
    trnsparseHandle_t h;
    assert_int_equal(trnsparseCreate(&h), TRNSPARSE_STATUS_SUCCESS);
    open_cases();
    static const trnsciDataType types[] = {TRNSCI_R_32F, TRNSCI_R_64F, TRNSCI_C_32F, TRNSCI_C_64F};
    uint64_t seed = 301;
    for (int ti = 0; ti < 4; ti++)
        for (int trans = 0; trans < 2; trans++)
            for (int base = 0; base < 2; base++)
                run_gemvi(h, types[ti], trans, base, base ^ trans, seed++);
    check_all();
    /* Bad input: transA C, lda < m, a NULL handle; an index past n fails the op. */
    float one = 1.0f, v = 1.0f;
    int bad = 7;
    void *d_a = su_dev_put(&v, sizeof(v)), *d_i = su_dev_put(&bad, sizeof(bad));
    void *d_y = su_dev_put(&v, sizeof(v));
    assert_int_equal(trnsparseSgemvi(h, TRNSPARSE_OPERATION_CONJUGATE_TRANSPOSE, 1, 1, &one, d_a, 1,
                                     1, d_a, d_i, &one, d_y, TRNSPARSE_INDEX_BASE_ZERO, NULL),
                     TRNSPARSE_STATUS_NOT_SUPPORTED);
    assert_int_equal(trnsparseSgemvi(h, ops[0], 2, 1, &one, d_a, 1, 1, d_a, d_i, &one, d_y,
                                     TRNSPARSE_INDEX_BASE_ZERO, NULL),
                     TRNSPARSE_STATUS_INVALID_VALUE);
    su_expect_message("lda=1");
    assert_int_equal(trnsparseSgemvi(NULL, ops[0], 1, 1, &one, d_a, 1, 1, d_a, d_i, &one, d_y,
                                     TRNSPARSE_INDEX_BASE_ZERO, NULL),
                     TRNSPARSE_STATUS_NOT_INITIALIZED);
    assert_int_equal(trnsparseSgemvi(h, ops[0], 1, 1, &one, d_a, 1, 1, d_a, d_i, &one, d_y,
                                     TRNSPARSE_INDEX_BASE_ZERO, NULL),
                     TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(trnsciDeviceSynchronize(), trnsciErrorInvalidValue);
    su_expect_message("cooColInd[0] = 7 is outside [0, 0]");
    assert_int_equal(trnsciDeviceSynchronize(), trnsciSuccess);
    trnsciFree(d_a);
    trnsciFree(d_i);
    trnsciFree(d_y);
    trnsparseDestroy(h);
    assert_int_equal(trnsciDeviceReset(), trnsciSuccess);
}

/* A COO product big enough for two shards (cost >= 2 TRN_SHARD_SPARSE_MIN_COST,
 * as test_sparse.c's column-split case) on the daemon at addr: C's bytes into
 * *out, and at least min_shards shards run. */
static void *shard_case(const char *addr, uint64_t min_shards, trnsciDataType t, int opa,
                        size_t *len) {
    assert_int_equal(trnsciInit(addr), trnsciSuccess);
    trnsparseHandle_t h;
    assert_int_equal(trnsparseCreate(&h), TRNSPARSE_STATUS_SUCCESS);
    const int64_t m = 1500, k = 1000, n = 16, nnz = 60000;
    const int64_t mo = opa ? k : m, ki = opa ? m : k;
    const size_t es = esize(t);
    uint64_t s = 77;
    int32_t *ri = alloc0((size_t)nnz * 4), *ci = alloc0((size_t)nnz * 4);
    void *v = alloc0((size_t)nnz * es), *hb = alloc0((size_t)(ki * n) * es);
    for (int64_t p = 0; p < nnz; p++) {
        ri[p] = (int32_t)((su_uniform(&s) + 1.0) * 0.5 * (double)m) % (int32_t)m;
        ci[p] = (int32_t)((su_uniform(&s) + 1.0) * 0.5 * (double)k) % (int32_t)k;
        put(v, (size_t)p, rnd(&s, t), t);
    }
    for (int64_t e = 0; e < ki * n; e++)
        put(hb, (size_t)e, rnd(&s, t), t);
    void *d_r = su_dev_put(ri, (size_t)nnz * 4), *d_c = su_dev_put(ci, (size_t)nnz * 4);
    void *d_v = su_dev_put(v, (size_t)nnz * es), *d_b = su_dev_put(hb, (size_t)(ki * n) * es);
    void *d_out = NULL;
    *len = (size_t)(mo * n) * es;
    assert_int_equal(trnsciMalloc(&d_out, *len), trnsciSuccess);
    trnsparseSpMatDescr_t A;
    trnsparseDnMatDescr_t B, C;
    assert_int_equal(trnsparseCreateCoo(&A, m, k, nnz, d_r, d_c, d_v, TRNSPARSE_INDEX_32I,
                                        TRNSPARSE_INDEX_BASE_ZERO, t),
                     TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(trnsparseCreateDnMat(&B, ki, n, ki, d_b, t, TRNSPARSE_ORDER_COL),
                     TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(trnsparseCreateDnMat(&C, mo, n, mo, d_out, t, TRNSPARSE_ORDER_COL),
                     TRNSPARSE_STATUS_SUCCESS);
    const trnsciDataType ct = is_half(t) ? TRNSCI_R_32F : t;
    unsigned char al[16], be[16];
    if (ct == TRNSCI_R_32F) {
        ((float *)al)[0] = 0.75f;
        ((float *)be)[0] = 0.0f;
    } else {
        put(al, 0, CMPLX(0.75, -0.5), ct);
        put(be, 0, 0.0, ct);
    }
    assert_int_equal(trnsciDeviceSynchronize(), trnsciSuccess);
    const uint64_t before = su_shards_run(addr);
    assert_int_equal(
        trnsparseSpMM(h, ops[opa], ops[0], al, A, B, be, C, ct, TRNSPARSE_SPMM_ALG_DEFAULT, NULL),
        TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(trnsciDeviceSynchronize(), trnsciSuccess);
    const uint64_t shards = su_shards_run(addr) - before;
    if (shards < min_shards)
        fail_msg("type %d ran as %llu shard(s), want at least %llu", (int)t,
                 (unsigned long long)shards, (unsigned long long)min_shards);
    void *out = su_dev_get(d_out, *len);
    trnsparseDestroySpMat(A);
    trnsparseDestroyDnMat(B);
    trnsparseDestroyDnMat(C);
    trnsciFree(d_r);
    trnsciFree(d_c);
    trnsciFree(d_v);
    trnsciFree(d_b);
    trnsciFree(d_out);
    free(ri);
    free(ci);
    free(v);
    free(hb);
    trnsparseDestroy(h);
    assert_int_equal(trnsciDeviceReset(), trnsciSuccess);
    return out;
}

/* The column split gives the one-shard bits (1-core against 2-core daemon). */
static void test_shards(void **state) {
    (void)state;
    static const trnsciDataType types[] = {TRNSCI_C_64F, TRNSCI_C_32F, TRNSCI_R_16F};
    for (int i = 0; i < 3; i++) {
        size_t l1, l2;
        void *one = shard_case(one_core.unix_addr, 1, types[i], i == 0 ? 2 : i == 2, &l1);
        void *two = shard_case(two_cores.unix_addr, 2, types[i], i == 0 ? 2 : i == 2, &l2);
        assert_int_equal(l1, l2);
        if (memcmp(one, two, l1) != 0)
            fail_msg("type %d: 2 shards differ from 1", (int)types[i]);
        free(one);
        free(two);
    }
}

static void test_errors(void **state) {
    assert_int_equal(trnsciInit(su_addr(state)), trnsciSuccess);
    trnsparseHandle_t h;
    assert_int_equal(trnsparseCreate(&h), TRNSPARSE_STATUS_SUCCESS);
    int32_t off[3] = {0, 1, 2}, idx[2] = {0, 5};
    float val[4] = {1, 0, 2, 0}, xv[8] = {0}, yv[4] = {0};
    void *d_off = su_dev_put(off, sizeof(off)), *d_idx = su_dev_put(idx, sizeof(idx));
    void *d_val = su_dev_put(val, sizeof(val)), *d_x = su_dev_put(xv, sizeof(xv));
    void *d_y = su_dev_put(yv, sizeof(yv));
    const float one[2] = {1, 0}, zero[2] = {0, 0};
    trnsparseSpMatDescr_t A, H, E;
    trnsparseDnVecDescr_t x, y, x64;
    trnsparseDnMatDescr_t B, C;
    assert_int_equal(trnsparseCreateCsr(&A, 2, 4, 2, d_off, d_idx, d_val, TRNSPARSE_INDEX_32I,
                                        TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_BASE_ZERO,
                                        TRNSCI_C_32F),
                     TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(trnsparseCreateCsr(&H, 2, 4, 2, d_off, d_idx, d_val, TRNSPARSE_INDEX_32I,
                                        TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_BASE_ZERO,
                                        TRNSCI_R_16F),
                     TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(trnsparseCreateBlockedEll(&E, 2, 2, 1, 1, d_idx, d_val, TRNSPARSE_INDEX_32I,
                                               TRNSPARSE_INDEX_BASE_ZERO, TRNSCI_C_32F),
                     TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(trnsparseCreateDnVec(&x, 4, d_x, TRNSCI_C_32F), TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(trnsparseCreateDnVec(&x64, 2, d_x, TRNSCI_C_64F), TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(trnsparseCreateDnVec(&y, 2, d_y, TRNSCI_C_32F), TRNSPARSE_STATUS_SUCCESS);
    const trnsparseOperation_t N = TRNSPARSE_OPERATION_NON_TRANSPOSE;
    /* computeType C_64F for C_32F values (the scalars are read as C_64F). */
    const double one64[2] = {1, 0}, zero64[2] = {0, 0};
    assert_int_equal(
        trnsparseSpMV(h, N, one64, A, x, zero64, y, TRNSCI_C_64F, TRNSPARSE_SPMV_ALG_DEFAULT, NULL),
        TRNSPARSE_STATUS_NOT_SUPPORTED);
    su_expect_message("computeType must be C_32F");
    /* Half values with computeType R_16F. */
    assert_int_equal(
        trnsparseSpMV(h, N, one, H, x, zero, y, TRNSCI_R_16F, TRNSPARSE_SPMV_ALG_DEFAULT, NULL),
        TRNSPARSE_STATUS_NOT_SUPPORTED);
    su_expect_message("computeType must be R_32F for R_16F values");
    /* A C_64F vector with a C_32F matrix (sizes fit: 2 C_64F = 4 C_32F). */
    assert_int_equal(trnsparseSpMV(h, TRNSPARSE_OPERATION_TRANSPOSE, one, A, y, zero, x64,
                                   TRNSCI_C_32F, TRNSPARSE_SPMV_ALG_DEFAULT, NULL),
                     TRNSPARSE_STATUS_NOT_SUPPORTED);
    su_expect_message("must be the sparse matrix's (C_32F)");
    /* Blocked-ELL with opA = CONJUGATE_TRANSPOSE. */
    assert_int_equal(trnsparseSpMV(h, TRNSPARSE_OPERATION_CONJUGATE_TRANSPOSE, one, E, y, zero, y,
                                   TRNSCI_C_32F, TRNSPARSE_SPMV_ALG_DEFAULT, NULL),
                     TRNSPARSE_STATUS_NOT_SUPPORTED);
    su_expect_message("opA must be NON_TRANSPOSE");
    /* Screened SpMM takes real values only. */
    assert_int_equal(trnsparseCreateDnMat(&B, 4, 1, 4, d_x, TRNSCI_C_32F, TRNSPARSE_ORDER_COL),
                     TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(trnsparseCreateDnMat(&C, 2, 1, 2, d_y, TRNSCI_C_32F, TRNSPARSE_ORDER_COL),
                     TRNSPARSE_STATUS_SUCCESS);
    trnsparseDnVecDescr_t rbnd, cbnd;
    assert_int_equal(trnsparseCreateDnVec(&rbnd, 2, d_x, TRNSCI_R_32F), TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(trnsparseCreateDnVec(&cbnd, 4, d_x, TRNSCI_R_32F), TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(trnsparseSpMMScreened(h, N, N, one, A, B, zero, C, rbnd, cbnd, 0.5,
                                           TRNSCI_C_32F, TRNSPARSE_SPMM_ALG_DEFAULT, NULL),
                     TRNSPARSE_STATUS_NOT_SUPPORTED);
    /* 16-bit values outside SpMV/SpMM: refused by the validator, whichever
     * side runs it (regression: the client used to police this alone). */
    trnsparseDnMatDescr_t Dh;
    assert_int_equal(trnsparseCreateDnMat(&Dh, 2, 4, 2, d_x, TRNSCI_R_16F, TRNSPARSE_ORDER_COL),
                     TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(trnsparseSparseToDense(h, H, Dh, TRNSPARSE_SPARSETODENSE_ALG_DEFAULT, NULL),
                     TRNSPARSE_STATUS_NOT_SUPPORTED);
    su_expect_message("(R_16F) is supported by SpMV and SpMM only");
    trnsparseDestroyDnMat(Dh);
    /* Column index 5 of a 4-column matrix: the op fails when it runs. */
    assert_int_equal(
        trnsparseSpMV(h, N, one, A, x, zero, y, TRNSCI_C_32F, TRNSPARSE_SPMV_ALG_DEFAULT, NULL),
        TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(trnsciDeviceSynchronize(), trnsciErrorInvalidValue);
    su_expect_message("csrColInd[1] = 5 is outside [0, 3]");
    assert_int_equal(trnsciDeviceSynchronize(), trnsciSuccess);
    /* The daemon still serves: a good product (index fixed). */
    idx[1] = 3;
    assert_int_equal(trnsciMemcpy(d_idx, idx, sizeof(idx), trnsciMemcpyHostToDevice),
                     trnsciSuccess);
    assert_int_equal(
        trnsparseSpMV(h, N, one, A, x, zero, y, TRNSCI_C_32F, TRNSPARSE_SPMV_ALG_DEFAULT, NULL),
        TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(trnsciDeviceSynchronize(), trnsciSuccess);
    trnsparseDestroyDnVec(rbnd);
    trnsparseDestroyDnVec(cbnd);
    trnsparseDestroyDnMat(B);
    trnsparseDestroyDnMat(C);
    trnsparseDestroyDnVec(x);
    trnsparseDestroyDnVec(x64);
    trnsparseDestroyDnVec(y);
    trnsparseDestroySpMat(A);
    trnsparseDestroySpMat(H);
    trnsparseDestroySpMat(E);
    trnsciFree(d_off);
    trnsciFree(d_idx);
    trnsciFree(d_val);
    trnsciFree(d_x);
    trnsciFree(d_y);
    trnsparseDestroy(h);
    assert_int_equal(trnsciDeviceReset(), trnsciSuccess);
}

int main(void) {
    snprintf(tmp_dir, sizeof(tmp_dir), "/tmp/trnsci_sparse_x_XXXXXX");
    if (!mkdtemp(tmp_dir)) {
        perror("mkdtemp");
        return 1;
    }
    if (su_start_daemons(&one_core, &two_cores) != 0)
        return 1;
    local_t.addr = one_core.unix_addr;
    grpc_t.addr = two_cores.tcp_addr;
    const struct CMUnitTest tests[] = {
        SU_ON(test_complex, local), SU_ON(test_complex, grpc), SU_ON(test_half, local),
        SU_ON(test_half, grpc),     SU_ON(test_errors, local), SU_ON(test_gemvi, local),
        SU_ON(test_gemvi, grpc),    SU_ONCE(test_shards),
    };
    int failed = cmocka_run_group_tests_name("sparse_x", tests, NULL, NULL);
    failed += th_daemon_stop_checked(&one_core, "trnscid --cores 1");
    failed += th_daemon_stop_checked(&two_cores, "trnscid --cores 2");
    return failed ? 1 : 0;
}
