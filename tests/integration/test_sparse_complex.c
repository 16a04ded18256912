/*
 * test_sparse_complex.c — trnsparse's triangular solves (SpSV, SpSM),
 * SpGEMM, SpGEMMreuse and SDDMM on complex values (C_32F, C_64F) through a
 * real daemon, over the local transport and gRPC over TCP, against scipy /
 * numpy in complex128 (sparse_complex_ref.py under Debian's python3):
 *
 *  - Random sparse n x n matrices with entries in both triangles (the
 *    solve must ignore the other one), a dominant diagonal of random phase
 *    (|a_ii| in [1.5, 2), off-diagonal row sums of magnitudes <= 0.5), so
 *    op(T) is well conditioned. CSR, COO (entries shuffled) and Sliced-ELL
 *    (slices of 3 rows, padded, the last slice partial); 32/64-bit indices,
 *    base 0/1; fill lower and upper; op N, T and C (conjugate transpose);
 *    unit diagonal (the stored one is not 1 and must be ignored); complex
 *    alpha; SpSM with 3 right-hand sides, op(B) N, T and C (B^H); C at a
 *    leading dimension with padding that must come back unchanged.
 *  - Tolerance. Substitution with w terms a row computes x with
 *    (T + dT) x = fl(alpha b), |dT| <= gamma_k |T| componentwise (Higham
 *    (8.3)); in complex arithmetic a product has a relative error <= sqrt(2)
 *    gamma_2 and a quotient <= sqrt(2) gamma_4 (Higham Lemma 3.5), an
 *    addition <= u, so k = w + 9 covers a row's w - 1 additions, one
 *    product per term and the division; fl(alpha b) is one product
 *    (<= 3u). To first order |x - x_ref| <= gamma_{w+9} |T^-1||T||x| +
 *    3u |T^-1||alpha b| (the script's E1, E2 at its own x: a second-order
 *    change). C_64F results are held to twice that (the complex128
 *    reference has an error of the same size).
 *  - Splits: an SpSM with 64 right-hand sides (2000 x 2000, op C, C_64F)
 *    runs as >= 2 shards on a 2-core daemon and is bitwise equal to the
 *    1-core run.
 *  - SpGEMM (and SpGEMMreuse) C = alpha A B, CSR 30 x 25 times 25 x 20,
 *    both index types and bases, against scipy's sparse product: C's
 *    structure exactly (sorted columns), each value within
 *    gamma_{S+6} |alpha| (|A||B|)_ij (S: the products summed; a complex
 *    product <= sqrt(2) gamma_2, Higham Lemma 3.5), twice for C_64F.
 *  - SDDMM C = alpha (op(A) op(B)) o spy(C) + beta C with opA, opB N, T
 *    and C (conjugate transpose), complex alpha and beta, against numpy's
 *    dense product: gamma_{k+7} (|alpha| (|op(A)||op(B)|)_ij + |beta c_ij|),
 *    twice for C_64F.
 *  - SDDMM into a BSR C (2 x 3 blocks, either block order, base 0 and 1;
 *    opA C): every element of every stored block, the same bound; and a
 *    real (R_64F) BSR C with small integers, exactly.
 *  - Complex csrilu02 / csric02 (C, Z) of a 40 x 40 Hermitian positive
 *    definite matrix, base 0 and 1: the factors reproduce A on the
 *    pattern (ILU0: L U = A, IC0: L L^H = A on the lower triangle; numpy
 *    in complex128), |L U - A| <= gamma_{w+8} |L||U| (see run_cilu); no
 *    zero pivot; IC0 leaves the upper triangle alone; a complex zero pivot
 *    is reported (ZERO_PIVOT, its row).
 *  - Bad input, each with cuSPARSE's status and a message: a compute type
 *    that is not the matrix's complex type, a real dense operand with a
 *    complex matrix (SpSV, SDDMM), complex beta != 0 and opA T in SpGEMM,
 *    a bad column index found when the complex solve runs (the daemon
 *    keeps serving).
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
#include "trnsci/trnsparse.h"

static th_daemon one_core, two_cores;
static char tmp_dir[256]; /* files for sparse_complex_ref.py */

static su_transport local_t = {"local", NULL}, grpc_t = {"grpc", NULL};

/* A complex sparse matrix as triplets sorted by (row, column). */
typedef struct cmat {
    int64_t m, n, nnz; /* m x n */
    int64_t *r, *c;
    double complex *v;
} cmat;

static void cmat_free(cmat *a) {
    free(a->r);
    free(a->c);
    free(a->v);
}

/* A value rounded to the test's precision (C_32F: float parts). */
static double complex rounded(double complex z, int c64) {
    return c64 ? z : CMPLX((double)(float)creal(z), (double)(float)cimag(z));
}

/* An n x n matrix: the diagonal and about per_row off-diagonal entries a
 * row in both triangles; off-diagonal row sums of magnitudes <= 0.5,
 * |a_ii| in [1.5, 2) with a random phase. */
static void make_cdominant(cmat *t, int64_t n, int per_row, int c64, uint64_t seed) {
    uint64_t s = seed | 1;
    const size_t cap = (size_t)n * (size_t)(per_row + 1) + 1;
    t->m = t->n = n;
    t->r = malloc(cap * 8);
    t->c = malloc(cap * 8);
    t->v = malloc(cap * sizeof(double complex));
    unsigned char *used = calloc((size_t)n + 1, 1);
    assert_true(t->r && t->c && t->v && used);
    t->nnz = 0;
    for (int64_t i = 0; i < n; i++) {
        memset(used, 0, (size_t)n);
        used[i] = 1;
        for (int k = 0; k < per_row && n > 1; k++)
            used[(int64_t)((su_uniform(&s) + 1.0) * 0.5 * (double)n) % n] = 1;
        for (int64_t j = 0; j < n; j++) {
            if (!used[j])
                continue;
            double complex v;
            if (j == i) {
                const double m = 1.5 + 0.5 * fabs(su_uniform(&s)), ph = 3.14159 * su_uniform(&s);
                v = m * CMPLX(cos(ph), sin(ph));
            } else {
                const double m = 0.5 / (per_row + 1) / sqrt(2.0);
                v = m * CMPLX(su_uniform(&s), su_uniform(&s));
            }
            t->r[t->nnz] = i;
            t->c[t->nnz] = j;
            t->v[t->nnz] = rounded(v, c64);
            t->nnz++;
        }
    }
    free(used);
}

/* An m x n matrix with each entry present with probability density,
 * parts uniform in [-1, 1). */
static void make_crandom(cmat *t, int64_t m, int64_t n, double density, int c64, uint64_t seed) {
    uint64_t s = seed | 1;
    const size_t cap = (size_t)(m * n) + 1;
    t->m = m;
    t->n = n;
    t->r = malloc(cap * 8);
    t->c = malloc(cap * 8);
    t->v = malloc(cap * sizeof(double complex));
    assert_true(t->r && t->c && t->v);
    t->nnz = 0;
    for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < n; j++) {
            if ((su_uniform(&s) + 1.0) * 0.5 >= density)
                continue;
            t->r[t->nnz] = i;
            t->c[t->nnz] = j;
            t->v[t->nnz] = rounded(CMPLX(su_uniform(&s), su_uniform(&s)), c64);
            t->nnz++;
        }
}

/* Writes t as 0-based int64 CSR files <name>.indptr, .indices, .data. */
static void write_csr_as(const cmat *t, const char *name) {
    int64_t *ptr = calloc((size_t)t->m + 1, 8);
    assert_non_null(ptr);
    for (int64_t k = 0; k < t->nnz; k++)
        ptr[t->r[k] + 1]++;
    for (int64_t i = 0; i < t->m; i++)
        ptr[i + 1] += ptr[i];
    char f[64];
    snprintf(f, sizeof(f), "%s.indptr", name);
    su_write_file(tmp_dir, f, ptr, (size_t)(t->m + 1) * 8);
    snprintf(f, sizeof(f), "%s.indices", name);
    su_write_file(tmp_dir, f, t->c, (size_t)t->nnz * 8);
    snprintf(f, sizeof(f), "%s.data", name);
    su_write_file(tmp_dir, f, t->v, (size_t)t->nnz * sizeof(double complex));
    free(ptr);
}

static void write_csr(const cmat *t) {
    write_csr_as(t, "A");
}

/* Element i of a complex array of either precision. */
static void cput(void *a, size_t i, double complex z, int c64) {
    if (c64) {
        ((double *)a)[2 * i] = creal(z);
        ((double *)a)[2 * i + 1] = cimag(z);
    } else {
        ((float *)a)[2 * i] = (float)creal(z);
        ((float *)a)[2 * i + 1] = (float)cimag(z);
    }
}
static double complex cget(const void *a, size_t i, int c64) {
    if (c64)
        return CMPLX(((const double *)a)[2 * i], ((const double *)a)[2 * i + 1]);
    return CMPLX(((const float *)a)[2 * i], ((const float *)a)[2 * i + 1]);
}

/* A complex matrix on the device in one format, with its descriptor. */
typedef struct cdev {
    void *d_off, *d_idx, *d_row, *d_val;
    trnsparseSpMatDescr_t descr;
} cdev;

#define SLICE 3

static void cdev_build(cdev *d, const cmat *t, trnsparseFormat_t f, int c64, int idx64, int base,
                       uint64_t seed) {
    const int64_t n = t->m, ncols = t->n, nnz = t->nnz;
    const size_t isz = idx64 ? 8 : 4, es = c64 ? 16 : 8;
    const trnsparseIndexType_t it = idx64 ? TRNSPARSE_INDEX_64I : TRNSPARSE_INDEX_32I;
    const trnsparseIndexBase_t ib = base ? TRNSPARSE_INDEX_BASE_ONE : TRNSPARSE_INDEX_BASE_ZERO;
    const trnsciDataType vt = c64 ? TRNSCI_C_64F : TRNSCI_C_32F;
    *d = (cdev){0};
    int64_t *ptr = calloc((size_t)n + 1, 8);
    assert_non_null(ptr);
    for (int64_t k = 0; k < nnz; k++)
        ptr[t->r[k] + 1]++;
    for (int64_t i = 0; i < n; i++)
        ptr[i + 1] += ptr[i];
    if (f == TRNSPARSE_FORMAT_CSR || f == TRNSPARSE_FORMAT_COO) {
        void *off = calloc((size_t)n + 1, isz), *idx = calloc((size_t)nnz + 1, isz);
        void *row = calloc((size_t)nnz + 1, isz), *val = calloc((size_t)nnz + 1, es);
        int64_t *perm = malloc(((size_t)nnz + 1) * 8);
        assert_true(off && idx && row && val && perm);
        for (int64_t k = 0; k < nnz; k++)
            perm[k] = k;
        uint64_t s = seed | 1;
        if (f == TRNSPARSE_FORMAT_COO) /* Fisher-Yates: any order must do */
            for (int64_t k = nnz - 1; k > 0; k--) {
                const int64_t j =
                    (int64_t)((su_uniform(&s) + 1.0) * 0.5 * (double)(k + 1)) % (k + 1);
                const int64_t x = perm[k];
                perm[k] = perm[j];
                perm[j] = x;
            }
        for (int64_t i = 0; i <= n; i++)
            su_set_idx(off, (size_t)i, ptr[i] + base, idx64);
        for (int64_t k = 0; k < nnz; k++) {
            su_set_idx(idx, (size_t)k, t->c[perm[k]] + base, idx64);
            su_set_idx(row, (size_t)k, t->r[perm[k]] + base, idx64);
            cput(val, (size_t)k, t->v[perm[k]], c64);
        }
        d->d_idx = su_dev_put(idx, (size_t)nnz * isz);
        d->d_val = su_dev_put(val, (size_t)nnz * es);
        if (f == TRNSPARSE_FORMAT_CSR) {
            d->d_off = su_dev_put(off, ((size_t)n + 1) * isz);
            assert_int_equal(trnsparseCreateCsr(&d->descr, n, ncols, nnz, d->d_off, d->d_idx,
                                                d->d_val, it, it, ib, vt),
                             TRNSPARSE_STATUS_SUCCESS);
        } else {
            d->d_row = su_dev_put(row, (size_t)nnz * isz);
            assert_int_equal(trnsparseCreateCoo(&d->descr, n, ncols, nnz, d->d_row, d->d_idx,
                                                d->d_val, it, ib, vt),
                             TRNSPARSE_STATUS_SUCCESS);
        }
        free(off);
        free(idx);
        free(row);
        free(val);
        free(perm);
    } else { /* Sliced-ELL: slice s, entry k of its row r at offset + k * SLICE + r */
        const int64_t ns = (n + SLICE - 1) / SLICE;
        int64_t *soff = calloc((size_t)ns + 1, 8);
        assert_non_null(soff);
        for (int64_t sl = 0; sl < ns; sl++) {
            int64_t w = 0;
            for (int64_t r = sl * SLICE; r < n && r < (sl + 1) * SLICE; r++)
                w = ptr[r + 1] - ptr[r] > w ? ptr[r + 1] - ptr[r] : w;
            soff[sl + 1] = soff[sl] + w * SLICE;
        }
        const int64_t size = soff[ns];
        void *off = calloc((size_t)ns + 1, isz), *idx = calloc((size_t)size + 1, isz);
        void *val = calloc((size_t)size + 1, es);
        assert_true(off && idx && val);
        for (int64_t sl = 0; sl <= ns; sl++)
            su_set_idx(off, (size_t)sl, soff[sl] + base, idx64);
        for (int64_t p = 0; p < size; p++) { /* padding: column -1, a NaN value never read */
            su_set_idx(idx, (size_t)p, -1, idx64);
            cput(val, (size_t)p, CMPLX(NAN, NAN), c64);
        }
        for (int64_t r = 0; r < n; r++)
            for (int64_t k = ptr[r]; k < ptr[r + 1]; k++) {
                const size_t p = (size_t)(soff[r / SLICE] + (k - ptr[r]) * SLICE + r % SLICE);
                su_set_idx(idx, p, t->c[k] + base, idx64);
                cput(val, p, t->v[k], c64);
            }
        d->d_off = su_dev_put(off, ((size_t)ns + 1) * isz);
        d->d_idx = su_dev_put(idx, (size_t)size * isz);
        d->d_val = su_dev_put(val, (size_t)size * es);
        assert_int_equal(trnsparseCreateSlicedEll(&d->descr, n, ncols, nnz, size, SLICE, d->d_off,
                                                  d->d_idx, d->d_val, it, it, ib, vt),
                         TRNSPARSE_STATUS_SUCCESS);
        free(off);
        free(idx);
        free(val);
        free(soff);
    }
    free(ptr);
}

static void cdev_free(cdev *d) {
    trnsparseDestroySpMat(d->descr);
    void *p[] = {d->d_off, d->d_idx, d->d_row, d->d_val};
    for (int i = 0; i < 4; i++)
        if (p[i])
            assert_int_equal(trnsciFree(p[i]), trnsciSuccess);
}

static void set_attributes(trnsparseSpMatDescr_t m, int lower, int unit) {
    trnsparseFillMode_t fm = lower ? TRNSPARSE_FILL_MODE_LOWER : TRNSPARSE_FILL_MODE_UPPER;
    trnsparseDiagType_t dt = unit ? TRNSPARSE_DIAG_TYPE_UNIT : TRNSPARSE_DIAG_TYPE_NON_UNIT;
    assert_int_equal(trnsparseSpMatSetAttribute(m, TRNSPARSE_SPMAT_FILL_MODE, &fm, sizeof(fm)),
                     TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(trnsparseSpMatSetAttribute(m, TRNSPARSE_SPMAT_DIAG_TYPE, &dt, sizeof(dt)),
                     TRNSPARSE_STATUS_SUCCESS);
}

/* ---- SpSV / SpSM ------------------------------------------------------------------------ */

typedef struct csv_case {
    int64_t n, nrhs; /* nrhs 0: SpSV (vectors) */
    trnsparseFormat_t f;
    int c64, idx64, base, lower, unit;
    trnsparseOperation_t opa, opb;
} csv_case;

static const double complex alpha_c = 0.75 - 0.5 * I;

static void run_csv(trnsparseHandle_t h, const csv_case *cs, uint64_t seed) {
    const int64_t n = cs->n, k = cs->nrhs ? cs->nrhs : 1;
    const int c64 = cs->c64, sm = cs->nrhs > 0;
    const size_t es = c64 ? 16 : 8;
    const trnsciDataType t = c64 ? TRNSCI_C_64F : TRNSCI_C_32F;
    cmat a;
    make_cdominant(&a, n, 4, c64, seed);
    write_csr(&a);
    cdev da;
    cdev_build(&da, &a, cs->f, c64, cs->idx64, cs->base, seed + 1);
    set_attributes(da.descr, cs->lower, cs->unit);
    /* op(B): n x k values, row-major in opb. B stored column-major as n x k
     * (opB N) or k x n (T: B = op(B)^T, C: B = op(B)^H), ld = rows + 2. C:
     * n x k column-major, ld = n + 1, padding NaN. */
    uint64_t s = seed * 7 + 3;
    double complex *opb = malloc((size_t)(n * k) * sizeof(double complex));
    assert_non_null(opb);
    for (int64_t i = 0; i < n * k; i++)
        opb[i] = rounded(CMPLX(su_uniform(&s), su_uniform(&s)), c64);
    const trnsparseOperation_t opB = sm ? cs->opb : TRNSPARSE_OPERATION_NON_TRANSPOSE;
    const int bt = opB != TRNSPARSE_OPERATION_NON_TRANSPOSE;
    const int64_t brows = bt ? k : n, bcols = bt ? n : k;
    const int64_t bld = sm ? brows + 2 : n, cld = sm ? n + 1 : n;
    const size_t bsz = (size_t)(bcols * bld), csz = (size_t)(k * cld);
    void *hb = calloc(bsz, es), *hc = malloc(csz * es);
    assert_true(hb && hc);
    for (int64_t i = 0; i < n; i++)
        for (int64_t j = 0; j < k; j++) {
            const double complex z = opb[i * k + j];
            if (!bt)
                cput(hb, (size_t)(i + j * bld), z, c64);
            else
                cput(hb, (size_t)(j + i * bld),
                     opB == TRNSPARSE_OPERATION_CONJUGATE_TRANSPOSE ? conj(z) : z, c64);
        }
    for (size_t i = 0; i < csz; i++)
        cput(hc, i, CMPLX(NAN, NAN), c64);
    void *d_b = su_dev_put(hb, bsz * es), *d_c = su_dev_put(hc, csz * es);
    const float af[2] = {(float)creal(alpha_c), (float)cimag(alpha_c)};
    const double ad[2] = {creal(alpha_c), cimag(alpha_c)};
    const void *al = c64 ? (const void *)ad : (const void *)af;
    size_t bufsize = 99;
    if (sm) {
        trnsparseDnMatDescr_t mb, mc;
        assert_int_equal(trnsparseCreateDnMat(&mb, brows, bcols, bld, d_b, t, TRNSPARSE_ORDER_COL),
                         TRNSPARSE_STATUS_SUCCESS);
        assert_int_equal(trnsparseCreateDnMat(&mc, n, k, cld, d_c, t, TRNSPARSE_ORDER_COL),
                         TRNSPARSE_STATUS_SUCCESS);
        trnsparseSpSMDescr_t d;
        assert_int_equal(trnsparseSpSM_createDescr(&d), TRNSPARSE_STATUS_SUCCESS);
        assert_int_equal(trnsparseSpSM_bufferSize(h, cs->opa, opB, al, da.descr, mb, mc, t,
                                                  TRNSPARSE_SPSM_ALG_DEFAULT, d, &bufsize),
                         TRNSPARSE_STATUS_SUCCESS);
        assert_int_equal(bufsize, 0);
        if (trnsparseSpSM_analysis(h, cs->opa, opB, al, da.descr, mb, mc, t,
                                   TRNSPARSE_SPSM_ALG_DEFAULT, d, NULL) != TRNSPARSE_STATUS_SUCCESS)
            fail_msg("spsm analysis: %s", trnsciGetLastErrorMessage());
        if (trnsparseSpSM_solve(h, cs->opa, opB, al, da.descr, mb, mc, t,
                                TRNSPARSE_SPSM_ALG_DEFAULT, d) != TRNSPARSE_STATUS_SUCCESS)
            fail_msg("spsm solve: %s", trnsciGetLastErrorMessage());
        trnsparseSpSM_destroyDescr(d);
        trnsparseDestroyDnMat(mb);
        trnsparseDestroyDnMat(mc);
    } else {
        trnsparseDnVecDescr_t vx, vy;
        assert_int_equal(trnsparseCreateDnVec(&vx, n, d_b, t), TRNSPARSE_STATUS_SUCCESS);
        assert_int_equal(trnsparseCreateDnVec(&vy, n, d_c, t), TRNSPARSE_STATUS_SUCCESS);
        trnsparseSpSVDescr_t d;
        assert_int_equal(trnsparseSpSV_createDescr(&d), TRNSPARSE_STATUS_SUCCESS);
        assert_int_equal(trnsparseSpSV_bufferSize(h, cs->opa, al, da.descr, vx, vy, t,
                                                  TRNSPARSE_SPSV_ALG_DEFAULT, d, &bufsize),
                         TRNSPARSE_STATUS_SUCCESS);
        assert_int_equal(bufsize, 0);
        if (trnsparseSpSV_analysis(h, cs->opa, al, da.descr, vx, vy, t, TRNSPARSE_SPSV_ALG_DEFAULT,
                                   d, NULL) != TRNSPARSE_STATUS_SUCCESS)
            fail_msg("spsv analysis: %s", trnsciGetLastErrorMessage());
        if (trnsparseSpSV_solve(h, cs->opa, al, da.descr, vx, vy, t, TRNSPARSE_SPSV_ALG_DEFAULT,
                                d) != TRNSPARSE_STATUS_SUCCESS)
            fail_msg("spsv solve: %s", trnsciGetLastErrorMessage());
        trnsparseSpSV_destroyDescr(d);
        trnsparseDestroyDnVec(vx);
        trnsparseDestroyDnVec(vy);
    }
    void *out = su_dev_get(d_c, csz * es);
    char meta[256];
    const int op = cs->opa == TRNSPARSE_OPERATION_NON_TRANSPOSE ? 0
                   : cs->opa == TRNSPARSE_OPERATION_TRANSPOSE   ? 1
                                                                : 2;
    snprintf(meta, sizeof(meta), "%lld %lld %d %d %d %.17g %.17g", (long long)n, (long long)k,
             cs->lower, cs->unit, op, creal(alpha_c), cimag(alpha_c));
    su_write_file(tmp_dir, "meta.txt", meta, strlen(meta));
    su_write_file(tmp_dir, "B", opb, (size_t)(n * k) * sizeof(double complex));
    su_run_ref(PYTHON3, SPARSE_COMPLEX_REF_PY, "spsv", tmp_dir);
    size_t xb = 0, e1b = 0, e2b = 0, wb = 0;
    double complex *x = su_read_file(tmp_dir, "X", &xb);
    double *e1 = su_read_file(tmp_dir, "E1", &e1b), *e2 = su_read_file(tmp_dir, "E2", &e2b);
    int64_t *w = su_read_file(tmp_dir, "W", &wb);
    assert_true(xb == (size_t)(n * k) * 16 && e1b == (size_t)(n * k) * 8 && e1b == e2b && wb == 8);
    const long double u = c64 ? ldexpl(1.0L, -53) : ldexpl(1.0L, -24);
    const long double g = su_gamma(c64, (long double)w[0] + 9), twice = c64 ? 2.0L : 1.0L;
    long double worst = 0;
    for (int64_t i = 0; i < n; i++)
        for (int64_t j = 0; j < k; j++) {
            const size_t p = (size_t)(i + j * cld), q = (size_t)(i * k + j);
            const double complex got = cget(out, p, c64);
            const long double err = cabs(got - x[q]);
            const long double bound = twice * (g * e1[q] + 3 * u * e2[q]);
            if (!(err <= bound))
                fail_msg("%s %s op %d C(%lld,%lld) = (%.9g, %.9g), want (%.9g, %.9g): error %Lg "
                         "> bound %Lg",
                         sm ? "spsm" : "spsv", c64 ? "C_64F" : "C_32F", op, (long long)i,
                         (long long)j, creal(got), cimag(got), creal(x[q]), cimag(x[q]), err,
                         bound);
            if (bound > 0 && err / bound > worst)
                worst = err / bound;
        }
    /* Padding of C is untouched (still NaN). */
    for (size_t p = 0; p < csz; p++)
        if ((int64_t)(p % (size_t)cld) >= n && !isnan(creal(cget(out, p, c64))))
            fail_msg("C's padding at %zu was written", p);
    print_message("  %s %s n=%lld op %d: worst error / bound %.3Lg\n", sm ? "spsm" : "spsv",
                  c64 ? "C_64F" : "C_32F", (long long)n, op, worst);
    free(x);
    free(e1);
    free(e2);
    free(w);
    free(out);
    free(opb);
    free(hb);
    free(hc);
    assert_int_equal(trnsciFree(d_b), trnsciSuccess);
    assert_int_equal(trnsciFree(d_c), trnsciSuccess);
    cdev_free(&da);
    cmat_free(&a);
}

static void test_spsv(void **state) {
    assert_int_equal(trnsciInit(su_addr(state)), trnsciSuccess);
    trnsparseHandle_t h;
    assert_int_equal(trnsparseCreate(&h), TRNSPARSE_STATUS_SUCCESS);
    const trnsparseFormat_t CSR = TRNSPARSE_FORMAT_CSR, COO = TRNSPARSE_FORMAT_COO,
                            SELL = TRNSPARSE_FORMAT_SLICED_ELLPACK;
    const trnsparseOperation_t N = TRNSPARSE_OPERATION_NON_TRANSPOSE,
                               T = TRNSPARSE_OPERATION_TRANSPOSE,
                               C = TRNSPARSE_OPERATION_CONJUGATE_TRANSPOSE;
    const csv_case cases[] = {
        /* n, nrhs, format, c64, idx64, base, lower, unit, opA, opB */
        {60, 0, CSR, 0, 0, 0, 1, 0, N, N},  {60, 0, CSR, 1, 1, 1, 0, 0, C, N},
        {60, 0, COO, 1, 1, 1, 0, 0, T, N},  {60, 0, COO, 0, 0, 0, 1, 1, C, N},
        {61, 0, SELL, 1, 0, 0, 1, 1, C, N}, {61, 0, SELL, 0, 1, 1, 0, 0, N, N},
        {45, 3, CSR, 0, 0, 1, 1, 0, C, T},  {45, 3, CSR, 1, 0, 0, 0, 1, T, C},
        {45, 3, COO, 1, 0, 0, 0, 1, N, C},  {45, 3, COO, 0, 1, 1, 1, 0, C, N},
        {46, 3, SELL, 0, 1, 1, 0, 0, T, N}, {46, 3, SELL, 1, 0, 0, 1, 0, C, C},
        {1, 0, CSR, 1, 0, 0, 1, 0, C, N},   {1, 2, SELL, 0, 0, 1, 0, 0, C, T},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
        run_csv(h, &cases[i], 100 + i);
    trnsparseDestroy(h);
    assert_int_equal(trnsciDeviceReset(), trnsciSuccess);
}

/* ---- SpGEMM, SpGEMMreuse ------------------------------------------------------------------ */

static const double complex beta_c = 0.25 + 0.5 * I;

/* C = alpha A B (30 x 25 times 25 x 20, CSR) through SpGEMM's three
 * phases, or SpGEMMreuse's four (reuse), checked against scipy. */
static void run_cspgemm(trnsparseHandle_t h, int c64, int idx64, int base, int reuse,
                        uint64_t seed) {
    const int64_t m = 30, k = 25, n = 20;
    const size_t es = c64 ? 16 : 8, isz = idx64 ? 8 : 4;
    const trnsciDataType t = c64 ? TRNSCI_C_64F : TRNSCI_C_32F;
    const trnsparseIndexType_t it = idx64 ? TRNSPARSE_INDEX_64I : TRNSPARSE_INDEX_32I;
    cmat ta, tb;
    make_crandom(&ta, m, k, 0.15, c64, seed);
    make_crandom(&tb, k, n, 0.15, c64, seed + 1);
    write_csr_as(&ta, "A");
    write_csr_as(&tb, "B");
    cdev a, b;
    cdev_build(&a, &ta, TRNSPARSE_FORMAT_CSR, c64, idx64, base, 0);
    cdev_build(&b, &tb, TRNSPARSE_FORMAT_CSR, c64, idx64, base, 0);
    void *d_coff = NULL;
    assert_int_equal(trnsciMalloc(&d_coff, (size_t)(m + 1) * isz), trnsciSuccess);
    trnsparseSpMatDescr_t cm;
    assert_int_equal(trnsparseCreateCsr(&cm, m, n, 0, d_coff, NULL, NULL, it, it,
                                        base ? TRNSPARSE_INDEX_BASE_ONE : TRNSPARSE_INDEX_BASE_ZERO,
                                        t),
                     TRNSPARSE_STATUS_SUCCESS);
    const float af[2] = {(float)creal(alpha_c), (float)cimag(alpha_c)}, zf[2] = {0, 0};
    const double ad[2] = {creal(alpha_c), cimag(alpha_c)}, zd[2] = {0, 0};
    const void *al = c64 ? (const void *)ad : (const void *)af;
    const void *be = c64 ? (const void *)zd : (const void *)zf;
    const trnsparseOperation_t N = TRNSPARSE_OPERATION_NON_TRANSPOSE;
    const trnsparseSpGEMMAlg_t alg = TRNSPARSE_SPGEMM_DEFAULT;
    trnsparseSpGEMMDescr_t g;
    assert_int_equal(trnsparseSpGEMM_createDescr(&g), TRNSPARSE_STATUS_SUCCESS);
    void *buf = NULL, *d5 = NULL, *d_ccol = NULL, *d_cval = NULL;
    int64_t r_, c_, nnz;
    size_t s1 = 1, s2 = 1, s3 = 1, s4 = 0, s5 = 0;
    if (!reuse) {
        assert_int_equal(trnsparseSpGEMM_workEstimation(h, N, N, al, a.descr, b.descr, be, cm, t,
                                                        alg, g, &s1, NULL),
                         TRNSPARSE_STATUS_SUCCESS);
        assert_int_equal(
            trnsparseSpGEMM_compute(h, N, N, al, a.descr, b.descr, be, cm, t, alg, g, &s2, NULL),
            TRNSPARSE_STATUS_SUCCESS);
        assert_int_equal(trnsciMalloc(&buf, s2), trnsciSuccess);
        if (trnsparseSpGEMM_compute(h, N, N, al, a.descr, b.descr, be, cm, t, alg, g, &s2, buf) !=
            TRNSPARSE_STATUS_SUCCESS)
            fail_msg("spgemm compute: %s", trnsciGetLastErrorMessage());
    } else {
        assert_int_equal(
            trnsparseSpGEMMreuse_workEstimation(h, N, N, a.descr, b.descr, cm, alg, g, &s1, NULL),
            TRNSPARSE_STATUS_SUCCESS);
        assert_int_equal(trnsparseSpGEMMreuse_nnz(h, N, N, a.descr, b.descr, cm, alg, g, &s2, NULL,
                                                  &s3, NULL, &s4, NULL),
                         TRNSPARSE_STATUS_SUCCESS);
        assert_int_equal(trnsciMalloc(&buf, s4), trnsciSuccess);
        if (trnsparseSpGEMMreuse_nnz(h, N, N, a.descr, b.descr, cm, alg, g, &s2, NULL, &s3, NULL,
                                     &s4, buf) != TRNSPARSE_STATUS_SUCCESS)
            fail_msg("spgemm reuse nnz: %s", trnsciGetLastErrorMessage());
    }
    assert_int_equal(trnsparseSpMatGetSize(cm, &r_, &c_, &nnz), TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(trnsciMalloc(&d_ccol, (size_t)nnz * isz + 8), trnsciSuccess);
    assert_int_equal(trnsciMalloc(&d_cval, (size_t)nnz * es + 16), trnsciSuccess);
    assert_int_equal(trnsparseCsrSetPointers(cm, d_coff, d_ccol, d_cval), TRNSPARSE_STATUS_SUCCESS);
    if (!reuse) {
        if (trnsparseSpGEMM_copy(h, N, N, al, a.descr, b.descr, be, cm, t, alg, g) !=
            TRNSPARSE_STATUS_SUCCESS)
            fail_msg("spgemm copy: %s", trnsciGetLastErrorMessage());
    } else {
        assert_int_equal(
            trnsparseSpGEMMreuse_copy(h, N, N, a.descr, b.descr, cm, alg, g, &s5, NULL),
            TRNSPARSE_STATUS_SUCCESS);
        assert_int_equal(trnsciMalloc(&d5, s5), trnsciSuccess);
        if (trnsparseSpGEMMreuse_copy(h, N, N, a.descr, b.descr, cm, alg, g, &s5, d5) !=
            TRNSPARSE_STATUS_SUCCESS)
            fail_msg("spgemm reuse copy: %s", trnsciGetLastErrorMessage());
        if (trnsparseSpGEMMreuse_compute(h, N, N, al, a.descr, b.descr, be, cm, t, alg, g) !=
            TRNSPARSE_STATUS_SUCCESS)
            fail_msg("spgemm reuse compute: %s", trnsciGetLastErrorMessage());
    }
    char *off = su_dev_get(d_coff, (size_t)(m + 1) * isz);
    char *col = su_dev_get(d_ccol, (size_t)nnz * isz + 1);
    char *val = su_dev_get(d_cval, (size_t)nnz * es + 1);
    char meta[64];
    snprintf(meta, sizeof(meta), "%lld %lld %lld", (long long)m, (long long)k, (long long)n);
    su_write_file(tmp_dir, "meta.txt", meta, strlen(meta));
    su_run_ref(PYTHON3, SPARSE_COMPLEX_REF_PY, "spgemm", tmp_dir);
    size_t cb = 0, mb = 0, sb = 0;
    double complex *cref = su_read_file(tmp_dir, "C", &cb);
    double *mag = su_read_file(tmp_dir, "M", &mb), *cnt = su_read_file(tmp_dir, "S", &sb);
    assert_true(cb == (size_t)(m * n) * 16 && mb == (size_t)(m * n) * 8 && sb == mb);
    int64_t want = 0;
    for (int64_t q = 0; q < m * n; q++)
        want += cnt[q] > 0;
    assert_int_equal(nnz, want);
    /* c_ij sums S_ij complex products (each <= sqrt(2) gamma_2 relative
     * error, Higham Lemma 3.5) with S_ij - 1 additions, then one product
     * by alpha: |err| <= gamma_{S+6} |alpha| (|A||B|)_ij. */
    long double worst = 0;
    for (int64_t i = 0; i < m; i++) {
        const int64_t p0 = su_idx(off, (size_t)i, idx64) - base,
                      p1 = su_idx(off, (size_t)i + 1, idx64) - base;
        assert_true(p0 >= 0 && p0 <= p1 && p1 <= nnz);
        for (int64_t p = p0; p < p1; p++) {
            const int64_t j = su_idx(col, (size_t)p, idx64) - base;
            assert_true(j >= 0 && j < n && cnt[i * n + j] > 0);
            if (p > p0)
                assert_true(j > su_idx(col, (size_t)p - 1, idx64) - base);
            const double complex got = cget(val, (size_t)p, c64), ref = alpha_c * cref[i * n + j];
            const long double bound = (c64 ? 2.0L : 1.0L) *
                                      su_gamma(c64, (long double)cnt[i * n + j] + 6) *
                                      cabs(alpha_c) * mag[i * n + j];
            const long double err = cabs(got - ref);
            if (!(err <= bound))
                fail_msg("spgemm%s C(%lld,%lld) = (%.9g, %.9g), want (%.9g, %.9g): error %Lg > %Lg",
                         reuse ? " reuse" : "", (long long)i, (long long)j, creal(got), cimag(got),
                         creal(ref), cimag(ref), err, bound);
            worst = bound > 0 && err / bound > worst ? err / bound : worst;
        }
    }
    print_message("  spgemm%s %s: worst error / bound %.3Lg\n", reuse ? " reuse" : "",
                  c64 ? "C_64F" : "C_32F", worst);
    free(cref);
    free(mag);
    free(cnt);
    free(off);
    free(col);
    free(val);
    trnsparseSpGEMM_destroyDescr(g);
    trnsparseDestroySpMat(cm);
    void *frees[] = {buf, d5, d_coff, d_ccol, d_cval};
    for (int i = 0; i < 5; i++)
        if (frees[i])
            assert_int_equal(trnsciFree(frees[i]), trnsciSuccess);
    cdev_free(&a);
    cdev_free(&b);
    cmat_free(&ta);
    cmat_free(&tb);
}

static void test_spgemm(void **state) {
    assert_int_equal(trnsciInit(su_addr(state)), trnsciSuccess);
    trnsparseHandle_t h;
    assert_int_equal(trnsparseCreate(&h), TRNSPARSE_STATUS_SUCCESS);
    for (int c = 0; c < 8; c++)
        run_cspgemm(h, c & 1, (c >> 1) & 1, (c >> 1) & 1, c >> 2, 300 + (uint64_t)c);
    trnsparseDestroy(h);
    assert_int_equal(trnsciDeviceReset(), trnsciSuccess);
}

/* ---- SDDMM ------------------------------------------------------------------------------- */

/* C = alpha (op(A) op(B)) o spy(C) + beta C, op(A) 20 x 15, op(B) 15 x 18,
 * C CSR with about 30% of the entries. A (B) stored as op(A) (N),
 * op(A)^T (T) or op(A)^H (C), column-major with ld = rows + 1. */
static void run_csddmm(trnsparseHandle_t h, int c64, trnsparseOperation_t opa,
                       trnsparseOperation_t opb, uint64_t seed) {
    const int64_t m = 20, k = 15, n = 18;
    const size_t es = c64 ? 16 : 8;
    const trnsciDataType t = c64 ? TRNSCI_C_64F : TRNSCI_C_32F;
    cmat tc;
    make_crandom(&tc, m, n, 0.3, c64, seed);
    cdev dc;
    cdev_build(&dc, &tc, TRNSPARSE_FORMAT_CSR, c64, 0, 0, 0);
    double complex *la = malloc((size_t)(m * k) * 16), *lb = malloc((size_t)(k * n) * 16);
    assert_true(la && lb);
    uint64_t s = seed * 3 + 1;
    for (int64_t i = 0; i < m * k; i++)
        la[i] = rounded(CMPLX(su_uniform(&s), su_uniform(&s)), c64);
    for (int64_t i = 0; i < k * n; i++)
        lb[i] = rounded(CMPLX(su_uniform(&s), su_uniform(&s)), c64);
    /* op(X) is r x c (row-major in lx); X stored column-major. */
    const double complex *lx[2] = {la, lb};
    const int64_t rr[2] = {m, k}, cc[2] = {k, n};
    const trnsparseOperation_t ops[2] = {opa, opb};
    void *dev[2];
    trnsparseDnMatDescr_t dm[2];
    for (int x = 0; x < 2; x++) {
        const int tr = ops[x] != TRNSPARSE_OPERATION_NON_TRANSPOSE;
        const int64_t rows = tr ? cc[x] : rr[x], cols = tr ? rr[x] : cc[x], ld = rows + 1;
        void *hx = calloc((size_t)(ld * cols), es);
        assert_non_null(hx);
        for (int64_t i = 0; i < rr[x]; i++)
            for (int64_t j = 0; j < cc[x]; j++) {
                const double complex z = lx[x][i * cc[x] + j];
                if (!tr)
                    cput(hx, (size_t)(i + j * ld), z, c64);
                else
                    cput(hx, (size_t)(j + i * ld),
                         ops[x] == TRNSPARSE_OPERATION_CONJUGATE_TRANSPOSE ? conj(z) : z, c64);
            }
        dev[x] = su_dev_put(hx, (size_t)(ld * cols) * es);
        assert_int_equal(
            trnsparseCreateDnMat(&dm[x], rows, cols, ld, dev[x], t, TRNSPARSE_ORDER_COL),
            TRNSPARSE_STATUS_SUCCESS);
        free(hx);
    }
    const float af[2] = {(float)creal(alpha_c), (float)cimag(alpha_c)},
                bf[2] = {(float)creal(beta_c), (float)cimag(beta_c)};
    const double ad[2] = {creal(alpha_c), cimag(alpha_c)}, bd[2] = {creal(beta_c), cimag(beta_c)};
    const void *al = c64 ? (const void *)ad : (const void *)af;
    const void *be = c64 ? (const void *)bd : (const void *)bf;
    size_t bs = 99;
    assert_int_equal(trnsparseSDDMM_bufferSize(h, opa, opb, al, dm[0], dm[1], be, dc.descr, t,
                                               TRNSPARSE_SDDMM_ALG_DEFAULT, &bs),
                     TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(bs, 0);
    assert_int_equal(trnsparseSDDMM_preprocess(h, opa, opb, al, dm[0], dm[1], be, dc.descr, t,
                                               TRNSPARSE_SDDMM_ALG_DEFAULT, NULL),
                     TRNSPARSE_STATUS_SUCCESS);
    if (trnsparseSDDMM(h, opa, opb, al, dm[0], dm[1], be, dc.descr, t, TRNSPARSE_SDDMM_ALG_DEFAULT,
                       NULL) != TRNSPARSE_STATUS_SUCCESS)
        fail_msg("sddmm: %s", trnsciGetLastErrorMessage());
    char *val = su_dev_get(dc.d_val, (size_t)tc.nnz * es);
    char meta[64];
    snprintf(meta, sizeof(meta), "%lld %lld %lld", (long long)m, (long long)k, (long long)n);
    su_write_file(tmp_dir, "meta.txt", meta, strlen(meta));
    su_write_file(tmp_dir, "A", la, (size_t)(m * k) * 16);
    su_write_file(tmp_dir, "B", lb, (size_t)(k * n) * 16);
    su_run_ref(PYTHON3, SPARSE_COMPLEX_REF_PY, "dense", tmp_dir);
    size_t pb = 0, mb = 0;
    double complex *P = su_read_file(tmp_dir, "P", &pb);
    double *M = su_read_file(tmp_dir, "M", &mb);
    assert_true(pb == (size_t)(m * n) * 16 && mb == (size_t)(m * n) * 8);
    /* A dot of k complex products (sqrt(2) gamma_2 each, k - 1 additions),
     * then alpha dot + beta c (two products, one addition):
     * |err| <= gamma_{k+7} (|alpha| (|op(A)||op(B)|)_ij + |beta c_ij|). */
    long double worst = 0;
    for (int64_t p = 0; p < tc.nnz; p++) {
        const int64_t i = tc.r[p], j = tc.c[p];
        const double complex ref = alpha_c * P[i * n + j] + beta_c * tc.v[p];
        const double complex got = cget(val, (size_t)p, c64);
        const long double bound = (c64 ? 2.0L : 1.0L) * su_gamma(c64, (long double)k + 7) *
                                  (cabs(alpha_c) * M[i * n + j] + cabs(beta_c) * cabs(tc.v[p]));
        const long double err = cabs(got - ref);
        if (!(err <= bound))
            fail_msg("sddmm %s opA %d opB %d C(%lld,%lld): error %Lg > %Lg",
                     c64 ? "C_64F" : "C_32F", (int)opa, (int)opb, (long long)i, (long long)j, err,
                     bound);
        worst = bound > 0 && err / bound > worst ? err / bound : worst;
    }
    print_message("  sddmm %s opA %d opB %d: worst error / bound %.3Lg\n", c64 ? "C_64F" : "C_32F",
                  (int)opa, (int)opb, worst);
    free(P);
    free(M);
    free(val);
    for (int x = 0; x < 2; x++) {
        trnsparseDestroyDnMat(dm[x]);
        assert_int_equal(trnsciFree(dev[x]), trnsciSuccess);
    }
    free(la);
    free(lb);
    cdev_free(&dc);
    cmat_free(&tc);
}

static void test_sddmm(void **state) {
    assert_int_equal(trnsciInit(su_addr(state)), trnsciSuccess);
    trnsparseHandle_t h;
    assert_int_equal(trnsparseCreate(&h), TRNSPARSE_STATUS_SUCCESS);
    const trnsparseOperation_t N = TRNSPARSE_OPERATION_NON_TRANSPOSE,
                               T = TRNSPARSE_OPERATION_TRANSPOSE,
                               C = TRNSPARSE_OPERATION_CONJUGATE_TRANSPOSE;
    const trnsparseOperation_t pairs[][2] = {{N, N}, {C, N}, {N, C}, {T, C}, {C, T}};
    for (int c64 = 0; c64 < 2; c64++)
        for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++)
            run_csddmm(h, c64, pairs[i][0], pairs[i][1], 500 + i + 10 * (uint64_t)c64);
    trnsparseDestroy(h);
    assert_int_equal(trnsciDeviceReset(), trnsciSuccess);
}

/* SDDMM into a BSR C: 7 x 6 blocks of 2 x 3 (m = 14, n = 18, k = 11),
 * about 40% of the blocks stored, in block order `order`, base `base`;
 * opA C and opB N. Every element of a stored block is alpha P_ij +
 * beta c_ij with the same bound as CSR; elements of unstored blocks do not
 * exist in C. */
static void run_csddmm_bsr(trnsparseHandle_t h, int c64, trnsparseOrder_t order, int base,
                           uint64_t seed) {
    const int64_t mb = 7, nb = 6, rb = 2, cb = 3, m = mb * rb, n = nb * cb, k = 11;
    const size_t es = c64 ? 16 : 8, bs = (size_t)(rb * cb);
    const trnsciDataType t = c64 ? TRNSCI_C_64F : TRNSCI_C_32F;
    cmat blk; /* the block pattern; its values unused */
    make_crandom(&blk, mb, nb, 0.4, c64, seed);
    int32_t *off = calloc((size_t)mb + 1, 4), *col = calloc((size_t)blk.nnz + 1, 4);
    double complex *cv = malloc(((size_t)blk.nnz * bs + 1) * sizeof(double complex));
    void *hv = calloc((size_t)blk.nnz * bs + 1, es);
    assert_true(off && col && cv && hv);
    uint64_t s = seed * 5 + 2;
    for (int64_t p = 0; p < blk.nnz; p++) {
        off[blk.r[p] + 1]++;
        col[p] = (int32_t)(blk.c[p] + base);
    }
    for (int64_t i = 0; i < mb; i++)
        off[i + 1] += off[i];
    for (int64_t i = 0; i <= mb; i++)
        off[i] += base;
    for (size_t q = 0; q < (size_t)blk.nnz * bs; q++) {
        cv[q] = rounded(CMPLX(su_uniform(&s), su_uniform(&s)), c64);
        cput(hv, q, cv[q], c64);
    }
    void *d_off = su_dev_put(off, ((size_t)mb + 1) * 4),
         *d_col = su_dev_put(col, (size_t)blk.nnz * 4);
    void *d_val = su_dev_put(hv, (size_t)blk.nnz * bs * es);
    trnsparseSpMatDescr_t cm;
    assert_int_equal(trnsparseCreateBsr(&cm, mb, nb, blk.nnz, rb, cb, d_off, d_col, d_val,
                                        TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_32I,
                                        base ? TRNSPARSE_INDEX_BASE_ONE : TRNSPARSE_INDEX_BASE_ZERO,
                                        t, order),
                     TRNSPARSE_STATUS_SUCCESS);
    /* op(A) = A^H: A stored k x m; op(B) = B stored k x n; column-major. */
    double complex *la = malloc((size_t)(m * k) * 16), *lb = malloc((size_t)(k * n) * 16);
    void *ha = calloc((size_t)(k * m), es), *hb = calloc((size_t)(k * n), es);
    assert_true(la && lb && ha && hb);
    for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < k; j++) {
            la[i * k + j] = rounded(CMPLX(su_uniform(&s), su_uniform(&s)), c64);
            cput(ha, (size_t)(j + i * k), conj(la[i * k + j]), c64);
        }
    for (int64_t i = 0; i < k; i++)
        for (int64_t j = 0; j < n; j++) {
            lb[i * n + j] = rounded(CMPLX(su_uniform(&s), su_uniform(&s)), c64);
            cput(hb, (size_t)(i + j * k), lb[i * n + j], c64);
        }
    void *d_a = su_dev_put(ha, (size_t)(k * m) * es), *d_b = su_dev_put(hb, (size_t)(k * n) * es);
    trnsparseDnMatDescr_t da, db;
    assert_int_equal(trnsparseCreateDnMat(&da, k, m, k, d_a, t, TRNSPARSE_ORDER_COL),
                     TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(trnsparseCreateDnMat(&db, k, n, k, d_b, t, TRNSPARSE_ORDER_COL),
                     TRNSPARSE_STATUS_SUCCESS);
    const float af[2] = {(float)creal(alpha_c), (float)cimag(alpha_c)},
                bf[2] = {(float)creal(beta_c), (float)cimag(beta_c)};
    const double ad[2] = {creal(alpha_c), cimag(alpha_c)}, bd[2] = {creal(beta_c), cimag(beta_c)};
    const void *al = c64 ? (const void *)ad : (const void *)af;
    const void *be = c64 ? (const void *)bd : (const void *)bf;
    if (trnsparseSDDMM(h, TRNSPARSE_OPERATION_CONJUGATE_TRANSPOSE,
                       TRNSPARSE_OPERATION_NON_TRANSPOSE, al, da, db, be, cm, t,
                       TRNSPARSE_SDDMM_ALG_DEFAULT, NULL) != TRNSPARSE_STATUS_SUCCESS)
        fail_msg("sddmm (BSR C): %s", trnsciGetLastErrorMessage());
    char *val = su_dev_get(d_val, (size_t)blk.nnz * bs * es);
    char meta[64];
    snprintf(meta, sizeof(meta), "%lld %lld %lld", (long long)m, (long long)k, (long long)n);
    su_write_file(tmp_dir, "meta.txt", meta, strlen(meta));
    su_write_file(tmp_dir, "A", la, (size_t)(m * k) * 16);
    su_write_file(tmp_dir, "B", lb, (size_t)(k * n) * 16);
    su_run_ref(PYTHON3, SPARSE_COMPLEX_REF_PY, "dense", tmp_dir);
    size_t pb = 0, mgb = 0;
    double complex *P = su_read_file(tmp_dir, "P", &pb);
    double *M = su_read_file(tmp_dir, "M", &mgb);
    assert_true(pb == (size_t)(m * n) * 16 && mgb == (size_t)(m * n) * 8);
    long double worst = 0;
    for (int64_t p = 0; p < blk.nnz; p++)
        for (int64_t r = 0; r < rb; r++)
            for (int64_t c = 0; c < cb; c++) {
                const int64_t i = blk.r[p] * rb + r, j = blk.c[p] * cb + c;
                const size_t q = (size_t)p * bs +
                                 (size_t)(order == TRNSPARSE_ORDER_ROW ? r * cb + c : c * rb + r);
                const double complex ref = alpha_c * P[i * n + j] + beta_c * cv[q];
                const long double bound =
                    (c64 ? 2.0L : 1.0L) * su_gamma(c64, (long double)k + 7) *
                    (cabs(alpha_c) * M[i * n + j] + cabs(beta_c) * cabs(cv[q]));
                const long double err = cabs(cget(val, q, c64) - ref);
                if (!(err <= bound))
                    fail_msg("sddmm BSR C(%lld,%lld): error %Lg > %Lg", (long long)i, (long long)j,
                             err, bound);
                worst = bound > 0 && err / bound > worst ? err / bound : worst;
            }
    print_message("  sddmm BSR %s order %d: worst error / bound %.3Lg\n", c64 ? "C_64F" : "C_32F",
                  (int)order, worst);
    free(P);
    free(M);
    free(val);
    trnsparseDestroyDnMat(da);
    trnsparseDestroyDnMat(db);
    trnsparseDestroySpMat(cm);
    void *frees[] = {d_off, d_col, d_val, d_a, d_b};
    for (int i = 0; i < 5; i++)
        if (frees[i])
            assert_int_equal(trnsciFree(frees[i]), trnsciSuccess);
    free(off);
    free(col);
    free(cv);
    free(hv);
    free(la);
    free(lb);
    free(ha);
    free(hb);
    cmat_free(&blk);
}

/* A real BSR C, exactly: small integers, so every dot is exact. op(A) is
 * 4 x 2, op(B) 2 x 4 (both column-major, op N), C has 2 x 2 blocks (0, 1)
 * and (1, 0) of the 2 x 2 block grid, row-major blocks, base 1; alpha 2,
 * beta -1. */
static void run_sddmm_bsr_real(trnsparseHandle_t h) {
    const double A[8] = {1, 2, 3, 4, 1, 0, -1, 2}; /* column-major 4 x 2 */
    const double B[8] = {1, 1, 2, 0, 0, 3, -1, 1}; /* column-major 2 x 4 */
    const int32_t off[3] = {1, 2, 3}, col[2] = {2, 1};
    const double c0[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    void *d_a = su_dev_put(A, sizeof(A)), *d_b = su_dev_put(B, sizeof(B));
    void *d_off = su_dev_put(off, sizeof(off)), *d_col = su_dev_put(col, sizeof(col));
    void *d_val = su_dev_put(c0, sizeof(c0));
    trnsparseDnMatDescr_t da, db;
    assert_int_equal(trnsparseCreateDnMat(&da, 4, 2, 4, d_a, TRNSCI_R_64F, TRNSPARSE_ORDER_COL),
                     TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(trnsparseCreateDnMat(&db, 2, 4, 2, d_b, TRNSCI_R_64F, TRNSPARSE_ORDER_COL),
                     TRNSPARSE_STATUS_SUCCESS);
    trnsparseSpMatDescr_t cm;
    assert_int_equal(trnsparseCreateBsr(&cm, 2, 2, 2, 2, 2, d_off, d_col, d_val,
                                        TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_32I,
                                        TRNSPARSE_INDEX_BASE_ONE, TRNSCI_R_64F,
                                        TRNSPARSE_ORDER_ROW),
                     TRNSPARSE_STATUS_SUCCESS);
    const double alpha = 2, beta = -1;
    const trnsparseOperation_t N = TRNSPARSE_OPERATION_NON_TRANSPOSE;
    if (trnsparseSDDMM(h, N, N, &alpha, da, db, &beta, cm, TRNSCI_R_64F,
                       TRNSPARSE_SDDMM_ALG_DEFAULT, NULL) != TRNSPARSE_STATUS_SUCCESS)
        fail_msg("sddmm (real BSR C): %s", trnsciGetLastErrorMessage());
    double *got = su_dev_get(d_val, sizeof(c0));
    /* Block 0 is block (0, 1): rows 0-1, columns 2-3; block 1 is (1, 0). */
    const int64_t br[2] = {0, 1}, bc[2] = {1, 0};
    for (int p = 0; p < 2; p++)
        for (int r = 0; r < 2; r++)
            for (int c = 0; c < 2; c++) {
                const int64_t i = br[p] * 2 + r, j = bc[p] * 2 + c;
                const double dot = A[i] * B[2 * j] + A[4 + i] * B[2 * j + 1];
                const int q = p * 4 + r * 2 + c;
                if (got[q] != alpha * dot + beta * c0[q])
                    fail_msg("real BSR sddmm C(%lld,%lld) = %g, want %g", (long long)i,
                             (long long)j, got[q], alpha * dot + beta * c0[q]);
            }
    free(got);
    trnsparseDestroyDnMat(da);
    trnsparseDestroyDnMat(db);
    trnsparseDestroySpMat(cm);
    void *frees[] = {d_a, d_b, d_off, d_col, d_val};
    for (int i = 0; i < 5; i++)
        assert_int_equal(trnsciFree(frees[i]), trnsciSuccess);
}

static void test_sddmm_bsr(void **state) {
    assert_int_equal(trnsciInit(su_addr(state)), trnsciSuccess);
    trnsparseHandle_t h;
    assert_int_equal(trnsparseCreate(&h), TRNSPARSE_STATUS_SUCCESS);
    for (int c = 0; c < 4; c++)
        run_csddmm_bsr(h, c & 1, (c >> 1) ? TRNSPARSE_ORDER_ROW : TRNSPARSE_ORDER_COL, c >> 1,
                       700 + (uint64_t)c);
    run_sddmm_bsr_real(h);
    trnsparseDestroy(h);
    assert_int_equal(trnsciDeviceReset(), trnsciSuccess);
}

/* ---- csrilu02, csric02 ----------------------------------------------------------------- */

/* An n x n Hermitian matrix: about per_row entries a row below the
 * diagonal, mirrored (conjugated) above, off-diagonal magnitudes <=
 * 0.5 / (per_row + 1) / sqrt(2) per part, a real diagonal in [1.5, 2):
 * positive definite (Gershgorin). Sorted triplets. */
static void make_chermitian(cmat *t, int64_t n, int per_row, int c64, uint64_t seed) {
    uint64_t s = seed | 1;
    double complex *dn = calloc((size_t)(n * n), sizeof(double complex));
    char *on = calloc((size_t)(n * n), 1);
    assert_true(dn && on);
    for (int64_t i = 0; i < n; i++) {
        for (int k = 0; k < per_row && i > 0; k++) {
            const int64_t j = (int64_t)((su_uniform(&s) + 1.0) * 0.5 * (double)i) % i;
            const double mg = 0.5 / (per_row + 1) / sqrt(2.0);
            const double complex z = rounded(mg * CMPLX(su_uniform(&s), su_uniform(&s)), c64);
            dn[i * n + j] = z;
            dn[j * n + i] = conj(z);
            on[i * n + j] = on[j * n + i] = 1;
        }
        dn[i * n + i] = rounded(1.5 + 0.5 * fabs(su_uniform(&s)), c64);
        on[i * n + i] = 1;
    }
    t->m = t->n = n;
    t->r = malloc((size_t)(n * n) * 8);
    t->c = malloc((size_t)(n * n) * 8);
    t->v = malloc((size_t)(n * n) * sizeof(double complex));
    assert_true(t->r && t->c && t->v);
    t->nnz = 0;
    for (int64_t i = 0; i < n; i++)
        for (int64_t j = 0; j < n; j++)
            if (on[i * n + j]) {
                t->r[t->nnz] = i;
                t->c[t->nnz] = j;
                t->v[t->nnz] = dn[i * n + j];
                t->nnz++;
            }
    free(dn);
    free(on);
}

/* ILU0 (chol 0) or IC0 (chol 1) of a 40 x 40 Hermitian positive definite
 * matrix; the factors must reproduce A on the pattern (ILU0: L U = A on
 * every stored entry; IC0: L L^H = A on the lower ones): each entry is a
 * sum of at most w products and one division, so in complex arithmetic
 * (sqrt(2) gamma_2 a product, sqrt(2) gamma_4 a quotient, Higham Lemma
 * 3.5) |L U - A|_ij <= gamma_{w+8} (|L||U|)_ij, w the longest row; twice
 * for C_64F (the complex128 check has an error of the same form). */
static void run_cilu(trnsparseHandle_t h, int c64, int chol, int base, uint64_t seed) {
    const int64_t n = 40;
    const size_t es = c64 ? 16 : 8;
    cmat a;
    make_chermitian(&a, n, 3, c64, seed);
    write_csr(&a);
    int32_t *off = calloc((size_t)n + 1, 4), *col = malloc((size_t)a.nnz * 4);
    void *hv = malloc((size_t)a.nnz * es);
    assert_true(off && col && hv);
    int64_t w = 0;
    for (int64_t p = 0; p < a.nnz; p++) {
        off[a.r[p] + 1]++;
        col[p] = (int32_t)(a.c[p] + base);
        cput(hv, (size_t)p, a.v[p], c64);
    }
    for (int64_t i = 0; i < n; i++) {
        w = off[i + 1] > w ? off[i + 1] : w;
        off[i + 1] += off[i];
    }
    for (int64_t i = 0; i <= n; i++)
        off[i] += base;
    void *d_off = su_dev_put(off, ((size_t)n + 1) * 4), *d_col = su_dev_put(col, (size_t)a.nnz * 4);
    void *d_val = su_dev_put(hv, (size_t)a.nnz * es);
    trnsparseMatDescr_t md;
    assert_int_equal(trnsparseCreateMatDescr(&md), TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(
        trnsparseSetMatIndexBase(md, base ? TRNSPARSE_INDEX_BASE_ONE : TRNSPARSE_INDEX_BASE_ZERO),
        TRNSPARSE_STATUS_SUCCESS);
    const trnsparseSolvePolicy_t pol = TRNSPARSE_SOLVE_POLICY_USE_LEVEL;
    int bs = 99, pos = 7;
    const int m = (int)n, nnz = (int)a.nnz;
    trnsparseStatus_t st;
    if (chol) {
        csric02Info_t info;
        assert_int_equal(trnsparseCreateCsric02Info(&info), TRNSPARSE_STATUS_SUCCESS);
        if (c64) {
            assert_int_equal(
                trnsparseZcsric02_bufferSize(h, m, nnz, md, d_val, d_off, d_col, info, &bs),
                TRNSPARSE_STATUS_SUCCESS);
            assert_int_equal(
                trnsparseZcsric02_analysis(h, m, nnz, md, d_val, d_off, d_col, info, pol, NULL),
                TRNSPARSE_STATUS_SUCCESS);
            st = trnsparseZcsric02(h, m, nnz, md, d_val, d_off, d_col, info, pol, NULL);
        } else {
            assert_int_equal(
                trnsparseCcsric02_bufferSize(h, m, nnz, md, d_val, d_off, d_col, info, &bs),
                TRNSPARSE_STATUS_SUCCESS);
            assert_int_equal(
                trnsparseCcsric02_analysis(h, m, nnz, md, d_val, d_off, d_col, info, pol, NULL),
                TRNSPARSE_STATUS_SUCCESS);
            st = trnsparseCcsric02(h, m, nnz, md, d_val, d_off, d_col, info, pol, NULL);
        }
        if (st != TRNSPARSE_STATUS_SUCCESS)
            fail_msg("csric02: %s", trnsciGetLastErrorMessage());
        assert_int_equal(trnsparseXcsric02_zeroPivot(h, info, &pos), TRNSPARSE_STATUS_SUCCESS);
        trnsparseDestroyCsric02Info(info);
    } else {
        csrilu02Info_t info;
        assert_int_equal(trnsparseCreateCsrilu02Info(&info), TRNSPARSE_STATUS_SUCCESS);
        if (c64) {
            assert_int_equal(
                trnsparseZcsrilu02_bufferSize(h, m, nnz, md, d_val, d_off, d_col, info, &bs),
                TRNSPARSE_STATUS_SUCCESS);
            assert_int_equal(
                trnsparseZcsrilu02_analysis(h, m, nnz, md, d_val, d_off, d_col, info, pol, NULL),
                TRNSPARSE_STATUS_SUCCESS);
            st = trnsparseZcsrilu02(h, m, nnz, md, d_val, d_off, d_col, info, pol, NULL);
        } else {
            assert_int_equal(
                trnsparseCcsrilu02_bufferSize(h, m, nnz, md, d_val, d_off, d_col, info, &bs),
                TRNSPARSE_STATUS_SUCCESS);
            assert_int_equal(
                trnsparseCcsrilu02_analysis(h, m, nnz, md, d_val, d_off, d_col, info, pol, NULL),
                TRNSPARSE_STATUS_SUCCESS);
            st = trnsparseCcsrilu02(h, m, nnz, md, d_val, d_off, d_col, info, pol, NULL);
        }
        if (st != TRNSPARSE_STATUS_SUCCESS)
            fail_msg("csrilu02: %s", trnsciGetLastErrorMessage());
        assert_int_equal(trnsparseXcsrilu02_zeroPivot(h, info, &pos), TRNSPARSE_STATUS_SUCCESS);
        trnsparseDestroyCsrilu02Info(info);
    }
    assert_int_equal(bs, 0);
    assert_int_equal(pos, -1);
    char *val = su_dev_get(d_val, (size_t)a.nnz * es);
    double complex *f = malloc((size_t)a.nnz * 16);
    assert_non_null(f);
    for (int64_t p = 0; p < a.nnz; p++)
        f[p] = cget(val, (size_t)p, c64);
    char meta[64];
    snprintf(meta, sizeof(meta), "%lld %d", (long long)n, chol);
    su_write_file(tmp_dir, "meta.txt", meta, strlen(meta));
    su_write_file(tmp_dir, "F", f, (size_t)a.nnz * 16);
    su_run_ref(PYTHON3, SPARSE_COMPLEX_REF_PY, "ilu", tmp_dir);
    size_t rb = 0, mb = 0;
    double *R = su_read_file(tmp_dir, "R", &rb), *M = su_read_file(tmp_dir, "M", &mb);
    assert_true(rb == (size_t)a.nnz * 8 && mb == rb);
    const long double g = (c64 ? 2.0L : 1.0L) * su_gamma(c64, (long double)w + 8);
    long double worst = 0;
    for (int64_t p = 0; p < a.nnz; p++) {
        if (!(R[p] <= g * M[p]))
            fail_msg("%s %s: |(L U - A)(%lld,%lld)| = %g > %Lg", chol ? "csric02" : "csrilu02",
                     c64 ? "Z" : "C", (long long)a.r[p], (long long)a.c[p], R[p], g * M[p]);
        worst = M[p] > 0 && R[p] / (g * M[p]) > worst ? R[p] / (g * M[p]) : worst;
    }
    /* IC0 leaves the entries above the diagonal untouched. */
    if (chol)
        for (int64_t p = 0; p < a.nnz; p++)
            if (a.c[p] > a.r[p] && f[p] != a.v[p])
                fail_msg("csric02 changed A(%lld,%lld) above the diagonal", (long long)a.r[p],
                         (long long)a.c[p]);
    print_message("  %s %s: worst residual / bound %.3Lg\n", chol ? "csric02" : "csrilu02",
                  c64 ? "Z" : "C", worst);
    free(R);
    free(M);
    free(f);
    free(val);
    free(off);
    free(col);
    free(hv);
    trnsparseDestroyMatDescr(md);
    void *frees[] = {d_off, d_col, d_val};
    for (int i = 0; i < 3; i++)
        assert_int_equal(trnsciFree(frees[i]), trnsciSuccess);
    cmat_free(&a);
}

static void test_ilu(void **state) {
    assert_int_equal(trnsciInit(su_addr(state)), trnsciSuccess);
    trnsparseHandle_t h;
    assert_int_equal(trnsparseCreate(&h), TRNSPARSE_STATUS_SUCCESS);
    for (int c = 0; c < 8; c++)
        run_cilu(h, c & 1, (c >> 1) & 1, c >> 2, 900 + (uint64_t)c);
    /* A zero pivot: ILU0 of [[1, i], [-i, 1]] has u_11 = 1 - (-i)(i) = 0. */
    const int32_t off[3] = {0, 2, 4}, col[4] = {0, 1, 0, 1};
    const double v[8] = {1, 0, 0, 1, 0, -1, 1, 0};
    void *d_off = su_dev_put(off, sizeof(off)), *d_col = su_dev_put(col, sizeof(col));
    void *d_val = su_dev_put(v, sizeof(v));
    trnsparseMatDescr_t md;
    assert_int_equal(trnsparseCreateMatDescr(&md), TRNSPARSE_STATUS_SUCCESS);
    csrilu02Info_t info;
    assert_int_equal(trnsparseCreateCsrilu02Info(&info), TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(trnsparseZcsrilu02(h, 2, 4, md, d_val, d_off, d_col, info,
                                        TRNSPARSE_SOLVE_POLICY_NO_LEVEL, NULL),
                     TRNSPARSE_STATUS_SUCCESS);
    int pos = -7;
    assert_int_equal(trnsparseXcsrilu02_zeroPivot(h, info, &pos), TRNSPARSE_STATUS_ZERO_PIVOT);
    assert_int_equal(pos, 1);
    trnsparseDestroyCsrilu02Info(info);
    trnsparseDestroyMatDescr(md);
    void *frees[] = {d_off, d_col, d_val};
    for (int i = 0; i < 3; i++)
        assert_int_equal(trnsciFree(frees[i]), trnsciSuccess);
    trnsparseDestroy(h);
    assert_int_equal(trnsciDeviceReset(), trnsciSuccess);
}

/* ---- splits ------------------------------------------------------------------------------ */

static void *cspsm_on(const char *addr, uint64_t min_shards, size_t *bytes) {
    assert_int_equal(trnsciInit(addr), trnsciSuccess);
    trnsparseHandle_t h;
    assert_int_equal(trnsparseCreate(&h), TRNSPARSE_STATUS_SUCCESS);
    const int64_t n = 2000, k = 64;
    cmat a;
    make_cdominant(&a, n, 4, 1, 77);
    cdev da;
    cdev_build(&da, &a, TRNSPARSE_FORMAT_CSR, 1, 0, 0, 0);
    set_attributes(da.descr, 1, 0);
    double *hb = malloc((size_t)(n * k) * 16);
    assert_non_null(hb);
    uint64_t s = 5;
    for (int64_t i = 0; i < 2 * n * k; i++)
        hb[i] = su_uniform(&s);
    *bytes = (size_t)(n * k) * 16;
    void *d_b = su_dev_put(hb, *bytes), *d_c = NULL;
    assert_int_equal(trnsciMalloc(&d_c, *bytes), trnsciSuccess);
    trnsparseDnMatDescr_t mb, mc;
    assert_int_equal(trnsparseCreateDnMat(&mb, n, k, n, d_b, TRNSCI_C_64F, TRNSPARSE_ORDER_COL),
                     TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(trnsparseCreateDnMat(&mc, n, k, n, d_c, TRNSCI_C_64F, TRNSPARSE_ORDER_COL),
                     TRNSPARSE_STATUS_SUCCESS);
    const double al[2] = {1.0, 0.25};
    const trnsparseOperation_t C = TRNSPARSE_OPERATION_CONJUGATE_TRANSPOSE,
                               N = TRNSPARSE_OPERATION_NON_TRANSPOSE;
    void *out =
        su_spsm_shards(h, addr, C, N, al, da.descr, mb, mc, TRNSCI_C_64F, d_c, *bytes, min_shards);
    assert_int_equal(trnsciFree(d_b), trnsciSuccess);
    assert_int_equal(trnsciFree(d_c), trnsciSuccess);
    free(hb);
    cdev_free(&da);
    cmat_free(&a);
    trnsparseDestroy(h);
    assert_int_equal(trnsciDeviceReset(), trnsciSuccess);
    return out;
}

static void test_spsm_cores(void **state) {
    (void)state;
    su_same_on_cores(cspsm_on, one_core.unix_addr, two_cores.unix_addr, "complex SpSM");
}

/* ---- bad input --------------------------------------------------------------------------- */

static void test_errors(void **state) {
    assert_int_equal(trnsciInit(su_addr(state)), trnsciSuccess);
    trnsparseHandle_t h;
    assert_int_equal(trnsparseCreate(&h), TRNSPARSE_STATUS_SUCCESS);
    /* A 2 x 2 lower complex CSR: [[2, 0], [i, 1+i]]. */
    const int32_t off[3] = {0, 1, 3}, col[3] = {0, 0, 1};
    const double val[6] = {2, 0, 0, 1, 1, 1};
    void *d_off = su_dev_put(off, sizeof(off)), *d_col = su_dev_put(col, sizeof(col));
    void *d_val = su_dev_put(val, sizeof(val));
    void *d_v = NULL;
    assert_int_equal(trnsciMalloc(&d_v, 16 * 16), trnsciSuccess);
    const double b[4] = {4, 2, -1, 4}; /* (4 + 2i, -1 + 4i) */
    assert_int_equal(trnsciMemcpy(d_v, b, sizeof(b), trnsciMemcpyHostToDevice), trnsciSuccess);
    trnsparseSpMatDescr_t a;
    assert_int_equal(trnsparseCreateCsr(&a, 2, 2, 3, d_off, d_col, d_val, TRNSPARSE_INDEX_32I,
                                        TRNSPARSE_INDEX_32I, TRNSPARSE_INDEX_BASE_ZERO,
                                        TRNSCI_C_64F),
                     TRNSPARSE_STATUS_SUCCESS);
    trnsparseDnVecDescr_t vx, vy, vr;
    assert_int_equal(trnsparseCreateDnVec(&vx, 2, d_v, TRNSCI_C_64F), TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(trnsparseCreateDnVec(&vy, 2, (double *)d_v + 8, TRNSCI_C_64F),
                     TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(trnsparseCreateDnVec(&vr, 2, (double *)d_v + 16, TRNSCI_R_64F),
                     TRNSPARSE_STATUS_SUCCESS);
    const double one[2] = {1, 0};
    const trnsparseOperation_t N = TRNSPARSE_OPERATION_NON_TRANSPOSE;
    const trnsparseSpSVAlg_t alg = TRNSPARSE_SPSV_ALG_DEFAULT;
    trnsparseSpSVDescr_t d;
    assert_int_equal(trnsparseSpSV_createDescr(&d), TRNSPARSE_STATUS_SUCCESS);

    assert_int_equal(trnsparseSpSV_analysis(h, N, one, a, vx, vy, TRNSCI_C_32F, alg, d, NULL),
                     TRNSPARSE_STATUS_NOT_SUPPORTED);
    su_expect_message("computeType must be the matrices' type (C_64F)");
    assert_int_equal(trnsparseSpSV_analysis(h, N, one, a, vx, vy, TRNSCI_R_64F, alg, d, NULL),
                     TRNSPARSE_STATUS_NOT_SUPPORTED);
    su_expect_message("computeType");
    assert_int_equal(trnsparseSpSV_analysis(h, N, one, a, vr, vy, TRNSCI_C_64F, alg, d, NULL),
                     TRNSPARSE_STATUS_NOT_SUPPORTED);
    su_expect_message("vecX: its data type must be the sparse matrix's (C_64F)");

    /* SpGEMM and SDDMM: complex beta != 0 in SpGEMM, opA T in SpGEMM, a
     * real dense operand with a complex C in SDDMM, a compute type that
     * is not the values'. */
    {
        const double cbeta[2] = {0, 1};
        trnsparseSpGEMMDescr_t g;
        assert_int_equal(trnsparseSpGEMM_createDescr(&g), TRNSPARSE_STATUS_SUCCESS);
        size_t s2 = 0;
        void *buf = NULL;
        assert_int_equal(trnsciMalloc(&buf, 64), trnsciSuccess);
        assert_int_equal(trnsparseSpGEMM_compute(h, N, N, one, a, a, cbeta, a, TRNSCI_C_64F,
                                                 TRNSPARSE_SPGEMM_DEFAULT, g, &s2, buf),
                         TRNSPARSE_STATUS_NOT_SUPPORTED);
        su_expect_message("beta must be 0");
        const double zero[2] = {0, 0};
        assert_int_equal(trnsparseSpGEMM_compute(h, TRNSPARSE_OPERATION_TRANSPOSE, N, one, a, a,
                                                 zero, a, TRNSCI_C_64F, TRNSPARSE_SPGEMM_DEFAULT, g,
                                                 &s2, buf),
                         TRNSPARSE_STATUS_NOT_SUPPORTED);
        su_expect_message("NON_TRANSPOSE");
        assert_int_equal(trnsparseSpGEMM_compute(h, N, N, one, a, a, zero, a, TRNSCI_C_32F,
                                                 TRNSPARSE_SPGEMM_DEFAULT, g, &s2, buf),
                         TRNSPARSE_STATUS_NOT_SUPPORTED);
        su_expect_message("computeType must be the matrices' type (C_64F)");
        trnsparseSpGEMM_destroyDescr(g);
        assert_int_equal(trnsciFree(buf), trnsciSuccess);
        trnsparseDnMatDescr_t dz, dr;
        assert_int_equal(trnsparseCreateDnMat(&dz, 2, 2, 2, (double *)d_v + 8, TRNSCI_C_64F,
                                              TRNSPARSE_ORDER_COL),
                         TRNSPARSE_STATUS_SUCCESS);
        assert_int_equal(trnsparseCreateDnMat(&dr, 2, 2, 2, (double *)d_v + 16, TRNSCI_R_64F,
                                              TRNSPARSE_ORDER_COL),
                         TRNSPARSE_STATUS_SUCCESS);
        assert_int_equal(trnsparseSDDMM(h, N, N, one, dz, dr, zero, a, TRNSCI_C_64F,
                                        TRNSPARSE_SDDMM_ALG_DEFAULT, NULL),
                         TRNSPARSE_STATUS_NOT_SUPPORTED);
        su_expect_message("matB: its data type must be the sparse matrix's (C_64F)");
        assert_int_equal(trnsparseSDDMM(h, N, N, one, dz, dz, zero, a, TRNSCI_R_64F,
                                        TRNSPARSE_SDDMM_ALG_DEFAULT, NULL),
                         TRNSPARSE_STATUS_NOT_SUPPORTED);
        su_expect_message("computeType");
        trnsparseDestroyDnMat(dz);
        trnsparseDestroyDnMat(dr);
    }

    /* A small exact solve: x = (2 + i, (-1 + 4i - i (2 + i)) / (1 + i)) = (2 + i, 1 + i). */
    assert_int_equal(trnsparseSpSV_analysis(h, N, one, a, vx, vy, TRNSCI_C_64F, alg, d, NULL),
                     TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(trnsparseSpSV_solve(h, N, one, a, vx, vy, TRNSCI_C_64F, alg, d),
                     TRNSPARSE_STATUS_SUCCESS);
    double *r = su_dev_get((double *)d_v + 8, 32);
    if (r[0] != 2 || r[1] != 1 || r[2] != 1 || r[3] != 1)
        fail_msg("complex spsv: (%g%+gi, %g%+gi), want (2+1i, 1+1i)", r[0], r[1], r[2], r[3]);
    free(r);

    /* A column index out of range, found when the complex analysis runs. */
    const int32_t bad = 7;
    assert_int_equal(trnsciMemcpy((int32_t *)d_col + 2, &bad, 4, trnsciMemcpyHostToDevice),
                     trnsciSuccess);
    assert_int_equal(trnsparseSpSV_analysis(h, N, one, a, vx, vy, TRNSCI_C_64F, alg, d, NULL),
                     TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(trnsciDeviceSynchronize(), trnsciErrorInvalidValue);
    su_expect_message("csrColInd[2] = 7");

    /* The daemon still serves. */
    assert_int_equal(trnsciMemcpy((int32_t *)d_col + 2, &col[2], 4, trnsciMemcpyHostToDevice),
                     trnsciSuccess);
    assert_int_equal(trnsparseSpSV_analysis(h, N, one, a, vx, vy, TRNSCI_C_64F, alg, d, NULL),
                     TRNSPARSE_STATUS_SUCCESS);
    assert_int_equal(trnsciDeviceSynchronize(), trnsciSuccess);

    trnsparseSpSV_destroyDescr(d);
    trnsparseDestroyDnVec(vx);
    trnsparseDestroyDnVec(vy);
    trnsparseDestroyDnVec(vr);
    trnsparseDestroySpMat(a);
    void *frees[] = {d_off, d_col, d_val, d_v};
    for (int i = 0; i < 4; i++)
        assert_int_equal(trnsciFree(frees[i]), trnsciSuccess);
    trnsparseDestroy(h);
    assert_int_equal(trnsciDeviceReset(), trnsciSuccess);
}

int main(void) {
    if (su_main_start(tmp_dir, sizeof(tmp_dir), "/tmp/trnsci-sparse-complex-XXXXXX", &one_core,
                      &two_cores, &local_t, &grpc_t) != 0)
        return 1;
    const struct CMUnitTest tests[] = {
        SU_ON(test_spsv, local),   SU_ON(test_spsv, grpc),       SU_ONCE(test_spsm_cores),
        SU_ON(test_spgemm, local), SU_ON(test_spgemm, grpc),     SU_ON(test_sddmm, local),
        SU_ON(test_sddmm, grpc),   SU_ON(test_sddmm_bsr, local), SU_ON(test_sddmm_bsr, grpc),
        SU_ON(test_ilu, local),    SU_ON(test_ilu, grpc),        SU_ON(test_errors, local),
        SU_ON(test_errors, grpc),
    };
    int failed = cmocka_run_group_tests_name("sparse_complex", tests, NULL, NULL);
    return su_main_end(failed, tmp_dir) ? 1 : 0;
}
