/*
 * test_gemm_half.c — GEMM on 16-bit and int8 storage through a real
 * trnscid (2 cores), over the local transport and gRPC over TCP:
 * trnblasHgemm, HgemmStridedBatched, HgemmBatched (and Hgemm_64), and GemmEx,
 * GemmStridedBatchedEx, GemmBatchedEx (and GemmGroupedBatchedEx, whose rows
 * are R_16F and R_16BF with C of the same type under COMPUTE_32F; the other
 * combinations NOT_SUPPORTED) with every supported narrow
 * combination (A, B in R_16F with C in R_16F under COMPUTE_16F and 32F, or
 * R_32F; R_16BF with C in R_16BF or R_32F; R_8I with C in R_32I under
 * COMPUTE_32I or R_32F; C_8I with C in C_32F under COMPUTE_32F, and
 * CgemmEx), with transposes (N, T, and C for the complex rows), alpha and
 * beta, beta = 0 over a C full of NaN, overflow to infinity, device
 * pointer mode, and the combinations that are NOT_SUPPORTED.
 *
 * Reference: numpy (Debian's /usr/bin/python3) in float64 on the inputs
 * widened by numpy itself (float16 from the stored bits, bfloat16 as the
 * top half of a float32's bits, int8), so nothing of the code under test
 * enters the reference; int8 products in int64, exact.
 *
 * Bound. The daemon widens exactly, computes alpha op(A) op(B) + beta C
 * in FP32 (an SGEMM: each element a dot product of length k plus the
 * beta term, error <= gamma_{k+2} M with M = |alpha| sum |a||b| +
 * |beta||c| and gamma_n = n u / (1 - n u), u = 2^-24), then rounds once to
 * C's type (relative error <= u_s = 2^-11 for half, 2^-8 for bfloat16, 0
 * for R_32F, plus half a subnormal quantum absolutely: 2^-25 for half,
 * 2^-134 for bfloat16). So |got - ref| <= gamma_{k+2} M (1 + u_s) + u_s
 * |ref| + abs_s, checked with gamma_n taken as 1.01 n u. int32 results are
 * exact. C's padding rows must come back untouched.
 */
#define _GNU_SOURCE /* pipe2 */
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
#include "numpy_coproc.h"
#include "trnsci/trn_fp16.h"
#include "trnsci/trnblas.h"
#include "trnsci/trnsci.h"

static th_daemon daemon_under_test;
static char work_dir[64];

/* ---- the numpy reference ------------------------------------------------------ */

/* One request per line: "ta tb m n k abtype ctype alpha beta lda ldb ldc
 * a b c out": stored A, B, C as raw files of their types (column-major
 * with their leading dimensions); writes R = alpha op(A) op(B) + beta C
 * (beta = 0: C not read) and M = |alpha| |op(A)| |op(B)| + |beta| |C|, m x n
 * column-major float64 each, then answers "ok". Complex int8 A and B
 * ('c8', with C 'c32'): alpha and beta are Python complex literals, op C
 * conjugates, and R is written as its real parts then its imaginary parts
 * (complex128 arithmetic on the exactly widened inputs; M with moduli). */
static const char *const numpy_script =
    "import numpy as np, sys\n"
    "def load(path, t, rows, cols, ld):\n"
    "    raw = np.fromfile(path, dtype={'f16': np.float16, 'bf16': np.uint16, 'i8': np.int8,\n"
    "                                   'f32': np.float32, 'i32': np.int32, 'c8': np.int8,\n"
    "                                   'c32': np.float32}[t])\n"
    "    if t == 'bf16': raw = (raw.astype(np.uint32) << 16).view(np.float32)\n"
    "    if t in ('c8', 'c32'): raw = raw.astype(np.float64).view(np.complex128)\n"
    "    wide = np.int64 if t in ('i8', 'i32') else np.float64\n"
    "    if t in ('c8', 'c32'): wide = np.complex128\n"
    "    x = np.zeros((ld, cols), dtype=wide)\n"
    "    flat = raw.astype(wide)\n"
    "    for j in range(cols): x[:, j][:min(ld, len(flat) - j * ld)] = flat[j * ld:(j + 1) * ld]\n"
    "    return x[:rows, :]\n"
    "while True:\n"
    "    line = sys.stdin.readline()\n"
    "    if not line: break\n"
    "    ta, tb, m, n, k, abt, ct, al, be, lda, ldb, ldc, pa, pb, pc, out = line.split()\n"
    "    m, n, k, lda, ldb, ldc = (int(v) for v in (m, n, k, lda, ldb, ldc))\n"
    "    a = load(pa, abt, m if ta == 'N' else k, k if ta == 'N' else m, lda)\n"
    "    b = load(pb, abt, k if tb == 'N' else n, n if tb == 'N' else k, ldb)\n"
    "    if ta != 'N': a = a.T\n"
    "    if tb != 'N': b = b.T\n"
    "    if ta == 'C': a = a.conj()\n"
    "    if tb == 'C': b = b.conj()\n"
    "    integer = abt == 'i8' and ct == 'i32'\n"
    "    cplx = abt == 'c8'\n"
    "    num = int if integer else complex if cplx else float\n"
    "    al = num(al)\n"
    "    be = num(be)\n"
    "    r = al * (a @ b)\n"
    "    mm = abs(al) * (np.abs(a).astype(np.float64) @ np.abs(b).astype(np.float64))\n"
    "    if be != 0:\n"
    "        c = load(pc, ct, m, n, ldc)\n"
    "        r = r + be * c\n"
    "        mm = mm + abs(be) * np.abs(c)\n"
    "    if cplx: r = np.concatenate([r.real.flatten(order='F'), r.imag.flatten(order='F')])\n"
    "    np.concatenate([np.asarray(r, dtype=np.float64).flatten(order='F'),\n"
    "                    np.asarray(mm, dtype=np.float64).flatten(order='F')]).tofile(out)\n"
    "    sys.stdout.write('ok\\n')\n"
    "    sys.stdout.flush()\n";

static FILE *numpy_in, *numpy_out;
static pid_t numpy_pid;

/* ---- storage types ------------------------------------------------------------ */

static size_t type_bytes(trnsciDataType_t t) {
    switch (t) {
    case TRNSCI_R_16F:
    case TRNSCI_R_16BF: return 2;
    case TRNSCI_R_8I: return 1;
    case TRNSCI_C_8I: return 2;
    case TRNSCI_C_32F: return 8;
    default: return 4; /* R_32F, R_32I */
    }
}

static const char *type_tag(trnsciDataType_t t) {
    switch (t) {
    case TRNSCI_R_16F: return "f16";
    case TRNSCI_R_16BF: return "bf16";
    case TRNSCI_R_8I: return "i8";
    case TRNSCI_R_32I: return "i32";
    case TRNSCI_C_8I: return "c8";
    case TRNSCI_C_32F: return "c32";
    default: return "f32";
    }
}

/* Unit roundoff and half the subnormal quantum of C's type. */
static double type_u(trnsciDataType_t t) {
    return t == TRNSCI_R_16F ? 0x1p-11 : t == TRNSCI_R_16BF ? 0x1p-8 : 0.0;
}
static double type_abs(trnsciDataType_t t) {
    return t == TRNSCI_R_16F ? 0x1p-25 : t == TRNSCI_R_16BF ? 0x1p-134 : 0x1p-150;
}

static uint64_t rng_state = 0x2545f4914f6cdd1dull;
static double rnd(void) { /* uniform in [-1, 1) */
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(rng_state >> 11) * 0x1p-52 - 1.0;
}

/* Element i of x (type t) set to a random value: magnitudes up to 4 for
 * floating types, -100..100 for int8, -1000..1000 for int32. */
static void put_random(trnsciDataType_t t, void *x, size_t i) {
    const double r = rnd();
    switch (t) {
    case TRNSCI_R_16F: {
        const trnsciHalf h = trnsciFloatToHalf((float)(4.0 * r));
        memcpy((char *)x + 2 * i, &h.x, 2);
        break;
    }
    case TRNSCI_R_16BF: {
        const trnsciBfloat16 b = trnsciFloatToBfloat16((float)(4.0 * r));
        memcpy((char *)x + 2 * i, &b.x, 2);
        break;
    }
    case TRNSCI_R_8I: ((int8_t *)x)[i] = (int8_t)lround(100.0 * r); break;
    case TRNSCI_R_32I: ((int32_t *)x)[i] = (int32_t)lround(1000.0 * r); break;
    case TRNSCI_C_8I: /* full range, -128 included */
        ((int8_t *)x)[2 * i] = (int8_t)(lround(127.5 * r - 0.5));
        ((int8_t *)x)[2 * i + 1] = (int8_t)(lround(127.5 * rnd() - 0.5));
        break;
    case TRNSCI_C_32F:
        ((float *)x)[2 * i] = (float)(4.0 * r);
        ((float *)x)[2 * i + 1] = (float)(4.0 * rnd());
        break;
    default: ((float *)x)[i] = (float)(4.0 * r); break;
    }
}

/* Element i of x (type t) as a double (exact). */
static double get(trnsciDataType_t t, const void *x, size_t i) {
    switch (t) {
    case TRNSCI_R_16F: {
        trnsciHalf h;
        memcpy(&h.x, (const char *)x + 2 * i, 2);
        return trnsciHalfToFloat(h);
    }
    case TRNSCI_R_16BF: {
        trnsciBfloat16 b;
        memcpy(&b.x, (const char *)x + 2 * i, 2);
        return trnsciBfloat16ToFloat(b);
    }
    case TRNSCI_R_8I: return ((const int8_t *)x)[i];
    case TRNSCI_R_32I: return ((const int32_t *)x)[i];
    default: return ((const float *)x)[i];
    }
}

/* A quiet NaN of type t (int32: a sentinel) at element i. */
static void put_nan(trnsciDataType_t t, void *x, size_t i) {
    const uint16_t h = t == TRNSCI_R_16F ? 0x7e00u : 0x7fc0u;
    const float f = NAN;
    switch (t) {
    case TRNSCI_R_16F:
    case TRNSCI_R_16BF: memcpy((char *)x + 2 * i, &h, 2); break;
    case TRNSCI_R_32I: ((int32_t *)x)[i] = 0x7eadbeef; break;
    case TRNSCI_C_32F:
        memcpy((char *)x + 8 * i, &f, 4);
        memcpy((char *)x + 8 * i + 4, &f, 4);
        break;
    default: memcpy((char *)x + 4 * i, &f, 4); break;
    }
}

static void write_file(const char *path, const void *x, size_t bytes) {
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(x, 1, bytes, f), bytes);
    fclose(f);
}

/* ---- one problem: host copies, device copies, the check ------------------------ */

typedef struct problem {
    trnsciDataType_t ab, c;
    char ta, tb;
    int m, n, k, lda, ldb, ldc, batch;
    size_t sa, sb, sc;        /* elements between matrices of the batch */
    void *ha, *hb, *hc;       /* host: batch matrices each, C as it was */
    void *da, *db, *dc;       /* device */
    double alpha, beta;       /* the values (exact in the scale type) */
    double alpha_im, beta_im; /* C_8I: imaginary parts */
    int c_nan;                /* C was filled with NaN (beta = 0) */
} problem;

static void *dev_upload(const void *host, size_t bytes) {
    void *d = NULL;
    assert_int_equal(trnsciMalloc(&d, bytes), trnsciSuccess);
    assert_int_equal(trnsciMemcpy(d, host, bytes, trnsciMemcpyHostToDevice), trnsciSuccess);
    return d;
}

static void problem_init(problem *p, trnsciDataType_t ab, trnsciDataType_t c, char ta, char tb,
                         int m, int n, int k, int batch, double alpha, double beta, int c_nan) {
    *p = (problem){.ab = ab, .c = c, .ta = ta, .tb = tb, .m = m, .n = n, .k = k, .batch = batch};
    p->alpha = alpha;
    p->beta = beta;
    p->c_nan = c_nan;
    const int ra = ta == 'N' ? m : k, ca = ta == 'N' ? k : m;
    const int rb = tb == 'N' ? k : n, cb = tb == 'N' ? n : k;
    p->lda = ra + 3; /* odd paddings: unaligned columns */
    p->ldb = rb + 1;
    p->ldc = m + 2;
    p->sa = (size_t)p->lda * (size_t)ca + 5;
    p->sb = (size_t)p->ldb * (size_t)cb + 1;
    p->sc = (size_t)p->ldc * (size_t)n + 3;
    const size_t ea = type_bytes(ab), ec = type_bytes(c);
    p->ha = calloc(p->sa * (size_t)batch, ea);
    p->hb = calloc(p->sb * (size_t)batch, ea);
    p->hc = calloc(p->sc * (size_t)batch, ec);
    assert_true(p->ha && p->hb && p->hc);
    for (size_t i = 0; i < p->sa * (size_t)batch; i++)
        put_random(ab, p->ha, i);
    for (size_t i = 0; i < p->sb * (size_t)batch; i++)
        put_random(ab, p->hb, i);
    for (size_t i = 0; i < p->sc * (size_t)batch; i++) {
        const size_t row = (i % p->sc) % (size_t)p->ldc;
        if (c_nan && row < (size_t)m && i % p->sc < (size_t)p->ldc * (size_t)n)
            put_nan(c, p->hc, i);
        else
            put_random(c, p->hc, i);
    }
    p->da = dev_upload(p->ha, p->sa * (size_t)batch * ea);
    p->db = dev_upload(p->hb, p->sb * (size_t)batch * ea);
    p->dc = dev_upload(p->hc, p->sc * (size_t)batch * ec);
}

static void problem_free(problem *p) {
    assert_int_equal(trnsciFree(p->da), trnsciSuccess);
    assert_int_equal(trnsciFree(p->db), trnsciSuccess);
    assert_int_equal(trnsciFree(p->dc), trnsciSuccess);
    free(p->ha);
    free(p->hb);
    free(p->hc);
}

/* The reference of matrix i of the batch: r and mm, m*n each (C_8I: r
 * holds 2 m*n, real parts then imaginary parts). */
static void reference(const problem *p, int i, double *r, double *mm) {
    char pa[128], pb[128], pc[128], po[128];
    snprintf(pa, sizeof(pa), "%s/a.bin", work_dir);
    snprintf(pb, sizeof(pb), "%s/b.bin", work_dir);
    snprintf(pc, sizeof(pc), "%s/c.bin", work_dir);
    snprintf(po, sizeof(po), "%s/out.bin", work_dir);
    const size_t ea = type_bytes(p->ab), ec = type_bytes(p->c);
    write_file(pa, (const char *)p->ha + (size_t)i * p->sa * ea, p->sa * ea);
    write_file(pb, (const char *)p->hb + (size_t)i * p->sb * ea, p->sb * ea);
    write_file(pc, (const char *)p->hc + (size_t)i * p->sc * ec, p->sc * ec);
    if (!numpy_in)
        numpy_coproc_start(work_dir, numpy_script, &numpy_in, &numpy_out, &numpy_pid);
    if (p->ab == TRNSCI_C_8I)
        fprintf(numpy_in,
                "%c %c %d %d %d c8 c32 (%.17g%+.17gj) (%.17g%+.17gj) %d %d %d %s %s %s %s\n", p->ta,
                p->tb, p->m, p->n, p->k, p->alpha, p->alpha_im, p->beta, p->beta_im, p->lda, p->ldb,
                p->ldc, pa, pb, pc, po);
    else
        fprintf(numpy_in, "%c %c %d %d %d %s %s %.17g %.17g %d %d %d %s %s %s %s\n", p->ta, p->tb,
                p->m, p->n, p->k, type_tag(p->ab), type_tag(p->c), p->alpha, p->beta, p->lda,
                p->ldb, p->ldc, pa, pb, pc, po);
    fflush(numpy_in);
    char reply[16] = "";
    if (!fgets(reply, sizeof(reply), numpy_out) || strcmp(reply, "ok\n") != 0)
        fail_msg("the numpy reference process failed");
    const size_t mn = (size_t)p->m * (size_t)p->n, nr = p->ab == TRNSCI_C_8I ? 2 * mn : mn;
    FILE *f = fopen(po, "rb");
    assert_non_null(f);
    assert_int_equal(fread(r, sizeof(double), nr, f), nr);
    assert_int_equal(fread(mm, sizeof(double), mn, f), mn);
    fclose(f);
}

/* Every matrix of the batch against numpy with the bound of the file's
 * header; padding untouched. */
static void problem_check(const problem *p) {
    assert_int_equal(trnsciDeviceSynchronize(), trnsciSuccess);
    const size_t ec = type_bytes(p->c), total = p->sc * (size_t)p->batch;
    void *got = malloc(total * ec);
    assert_non_null(got);
    assert_int_equal(trnsciMemcpy(got, p->dc, total * ec, trnsciMemcpyDeviceToHost), trnsciSuccess);
    const size_t mn = (size_t)p->m * (size_t)p->n;
    double *r = malloc(mn * sizeof(double)), *mm = malloc(mn * sizeof(double));
    assert_true(r && mm);
    const double us = type_u(p->c), gamma = 1.01 * (p->k + 2) * 0x1p-24;
    const int exact = p->c == TRNSCI_R_32I;
    for (int b = 0; b < p->batch; b++) {
        reference(p, b, r, mm);
        for (size_t e = 0; e < p->sc; e++) {
            const size_t at = (size_t)b * p->sc + e, row = e % (size_t)p->ldc;
            const size_t col = e / (size_t)p->ldc;
            if (row >= (size_t)p->m || col >= (size_t)p->n) { /* padding */
                if (memcmp((char *)got + at * ec, (char *)p->hc + at * ec, ec) != 0)
                    fail_msg("%s: matrix %d: padding element %zu changed", type_tag(p->c), b, e);
                continue;
            }
            const double g = get(p->c, got, at), ref = r[row + col * (size_t)p->m];
            const double m_ = mm[row + col * (size_t)p->m];
            const double bound =
                exact ? 0.0 : gamma * m_ * (1.0 + us) + us * fabs(ref) + type_abs(p->c);
            if (!(fabs(g - ref) <= bound))
                fail_msg("%s x %s -> %s %c%c m=%d n=%d k=%d: matrix %d (%zu, %zu): got %.9g, "
                         "numpy %.9g, bound %.3g",
                         type_tag(p->ab), type_tag(p->ab), type_tag(p->c), p->ta, p->tb, p->m, p->n,
                         p->k, b, row, col, g, ref, bound);
        }
    }
    free(r);
    free(mm);
    free(got);
}

static trnblasOperation_t op_of(char t) {
    return t == 'N' ? TRNBLAS_OP_N : t == 'T' ? TRNBLAS_OP_T : TRNBLAS_OP_C;
}

/* alpha and beta in the scale type of compute type ct. */
typedef struct scalars {
    trnsciHalf h[2];
    float f[2];
    int32_t i[2];
} scalars;

static const void *scale_ptr(const scalars *s, trnblasComputeType_t ct, int which) {
    if (ct == TRNBLAS_COMPUTE_16F || ct == TRNBLAS_COMPUTE_16F_PEDANTIC)
        return &s->h[which];
    if (ct == TRNBLAS_COMPUTE_32I || ct == TRNBLAS_COMPUTE_32I_PEDANTIC)
        return &s->i[which];
    return &s->f[which];
}

static scalars make_scalars(double alpha, double beta) {
    scalars s;
    s.h[0] = trnsciFloatToHalf((float)alpha);
    s.h[1] = trnsciFloatToHalf((float)beta);
    s.f[0] = (float)alpha;
    s.f[1] = (float)beta;
    s.i[0] = (int32_t)alpha;
    s.i[1] = (int32_t)beta;
    return s;
}

/* ---- the routines ------------------------------------------------------------- */

typedef enum form { ONE, STRIDED, LISTED, GROUPED } form;

static void *pointer_array(void *x, size_t stride, size_t es, int batch, void **host) {
    for (int i = 0; i < batch; i++) /* reversed order: matrix i of the call is batch-1-i here */
        host[i] = (char *)x + (size_t)(batch - 1 - i) * stride * es;
    return dev_upload(host, (size_t)batch * sizeof(void *));
}

/* Runs GemmEx (or its batched forms) on p. LISTED lists the matrices in
 * reverse order: call matrix i reads A and B and writes C of stored matrix
 * batch-1-i, so each stored matrix is still its own problem. */
static trnblasStatus_t run_ex(trnblasHandle_t h, problem *p, trnblasComputeType_t ct, form f) {
    const scalars s = make_scalars(p->alpha, p->beta);
    const void *al = scale_ptr(&s, ct, 0), *be = scale_ptr(&s, ct, 1);
    const trnblasOperation_t ta = op_of(p->ta), tb = op_of(p->tb);
    if (f == ONE)
        return trnblasGemmEx(h, ta, tb, p->m, p->n, p->k, al, p->da, p->ab, p->lda, p->db, p->ab,
                             p->ldb, be, p->dc, p->c, p->ldc, ct, TRNBLAS_GEMM_DEFAULT);
    if (f == STRIDED)
        return trnblasGemmStridedBatchedEx(h, ta, tb, p->m, p->n, p->k, al, p->da, p->ab, p->lda,
                                           (long long)p->sa, p->db, p->ab, p->ldb, (long long)p->sb,
                                           be, p->dc, p->c, p->ldc, (long long)p->sc, p->batch, ct,
                                           TRNBLAS_GEMM_DEFAULT);
    void *ha[16], *hb[16], *hc[16];
    assert_true(p->batch <= 16);
    void *la = pointer_array(p->da, p->sa, type_bytes(p->ab), p->batch, ha);
    void *lb = pointer_array(p->db, p->sb, type_bytes(p->ab), p->batch, hb);
    void *lc = pointer_array(p->dc, p->sc, type_bytes(p->c), p->batch, hc);
    trnblasStatus_t st;
    if (f == GROUPED) { /* two groups of the same shape: 1 and batch - 1 matrices */
        const trnblasOperation_t tas[2] = {ta, ta}, tbs[2] = {tb, tb};
        const int ms[2] = {p->m, p->m}, ns[2] = {p->n, p->n}, ks[2] = {p->k, p->k};
        const int ldas[2] = {p->lda, p->lda}, ldbs[2] = {p->ldb, p->ldb},
                  ldcs[2] = {p->ldc, p->ldc}, sizes[2] = {1, p->batch - 1};
        const float alphas[2] = {s.f[0], s.f[0]}, betas[2] = {s.f[1], s.f[1]};
        st = trnblasGemmGroupedBatchedEx(h, tas, tbs, ms, ns, ks, alphas, (const void *const *)la,
                                         p->ab, ldas, (const void *const *)lb, p->ab, ldbs, betas,
                                         (void *const *)lc, p->c, ldcs, 2, sizes, ct);
    } else {
        st = trnblasGemmBatchedEx(h, ta, tb, p->m, p->n, p->k, al, (const void *const *)la, p->ab,
                                  p->lda, (const void *const *)lb, p->ab, p->ldb, be,
                                  (void *const *)lc, p->c, p->ldc, p->batch, ct,
                                  TRNBLAS_GEMM_DEFAULT);
    }
    assert_int_equal(trnsciDeviceSynchronize(), trnsciSuccess);
    assert_int_equal(trnsciFree(la), trnsciSuccess);
    assert_int_equal(trnsciFree(lb), trnsciSuccess);
    assert_int_equal(trnsciFree(lc), trnsciSuccess);
    return st;
}

static trnblasStatus_t run_h(trnblasHandle_t h, problem *p, form f) {
    const scalars s = make_scalars(p->alpha, p->beta);
    const trnblasOperation_t ta = op_of(p->ta), tb = op_of(p->tb);
    if (f == ONE)
        return trnblasHgemm(h, ta, tb, p->m, p->n, p->k, &s.h[0], p->da, p->lda, p->db, p->ldb,
                            &s.h[1], p->dc, p->ldc);
    if (f == STRIDED)
        return trnblasHgemmStridedBatched(h, ta, tb, p->m, p->n, p->k, &s.h[0], p->da, p->lda,
                                          (long long)p->sa, p->db, p->ldb, (long long)p->sb,
                                          &s.h[1], p->dc, p->ldc, (long long)p->sc, p->batch);
    void *ha[16], *hb[16], *hc[16];
    void *la = pointer_array(p->da, p->sa, 2, p->batch, ha);
    void *lb = pointer_array(p->db, p->sb, 2, p->batch, hb);
    void *lc = pointer_array(p->dc, p->sc, 2, p->batch, hc);
    const trnblasStatus_t st = trnblasHgemmBatched(
        h, ta, tb, p->m, p->n, p->k, &s.h[0], (const trnsciHalf *const *)la, p->lda,
        (const trnsciHalf *const *)lb, p->ldb, &s.h[1], (trnsciHalf *const *)lc, p->ldc, p->batch);
    assert_int_equal(trnsciDeviceSynchronize(), trnsciSuccess);
    assert_int_equal(trnsciFree(la), trnsciSuccess);
    assert_int_equal(trnsciFree(lb), trnsciSuccess);
    assert_int_equal(trnsciFree(lc), trnsciSuccess);
    return st;
}

/* ---- tests -------------------------------------------------------------------- */

typedef struct combo {
    trnsciDataType_t ab, c;
    trnblasComputeType_t ct;
    double alpha, beta; /* exact in the scale type */
} combo;

static const combo combos[] = {
    {TRNSCI_R_16F, TRNSCI_R_16F, TRNBLAS_COMPUTE_16F, 1.5, -0.75},
    {TRNSCI_R_16F, TRNSCI_R_16F, TRNBLAS_COMPUTE_16F_PEDANTIC, -0.5, 2.0},
    {TRNSCI_R_16F, TRNSCI_R_16F, TRNBLAS_COMPUTE_32F, 0.30000001192092896, 1.0},
    {TRNSCI_R_16F, TRNSCI_R_32F, TRNBLAS_COMPUTE_32F, 0.30000001192092896, -1.25},
    {TRNSCI_R_16BF, TRNSCI_R_16BF, TRNBLAS_COMPUTE_32F, 1.25, 0.5},
    {TRNSCI_R_16BF, TRNSCI_R_32F, TRNBLAS_COMPUTE_32F_PEDANTIC, -2.0, 0.75},
    {TRNSCI_R_8I, TRNSCI_R_32I, TRNBLAS_COMPUTE_32I, 3.0, -2.0},
    {TRNSCI_R_8I, TRNSCI_R_32F, TRNBLAS_COMPUTE_32F, 0.5, 1.0},
};
#define NCOMBOS (sizeof(combos) / sizeof(combos[0]))

/* Every combination, every transpose pair, one GEMM wide enough (n = 53)
 * to be split over both cores in 24-column blocks. */
static void test_gemm_ex_combos(void **state) {
    (void)state;
    trnblasHandle_t h;
    assert_int_equal(trnblasCreate(&h), TRNBLAS_STATUS_SUCCESS);
    const char ts[2] = {'N', 'T'};
    for (size_t ci = 0; ci < NCOMBOS; ci++)
        for (int t = 0; t < 4; t++) {
            const combo *c = &combos[ci];
            problem p;
            problem_init(&p, c->ab, c->c, ts[t & 1], ts[t >> 1], 37, 53, 45, 1, c->alpha, c->beta,
                         0);
            assert_int_equal(run_ex(h, &p, c->ct, ONE), TRNBLAS_STATUS_SUCCESS);
            problem_check(&p);
            problem_free(&p);
        }
    /* Large enough (>= 2 x 16 MFLOP, n >= 256) to be split over both cores:
     * one GEMM cut between column blocks, and a strided batch cut inside its
     * second matrix (ops/shard.h). */
    for (size_t ci = 0; ci < NCOMBOS; ci++) {
        const combo *c = &combos[ci];
        problem p;
        problem_init(&p, c->ab, c->c, 'T', 'T', 200, 300, 300, 1, c->alpha, c->beta, 0);
        assert_int_equal(run_ex(h, &p, c->ct, ONE), TRNBLAS_STATUS_SUCCESS);
        problem_check(&p);
        problem_free(&p);
        problem_init(&p, c->ab, c->c, 'N', 'T', 64, 260, 320, 3, c->alpha, c->beta, 0);
        assert_int_equal(run_ex(h, &p, c->ct, STRIDED), TRNBLAS_STATUS_SUCCESS);
        problem_check(&p);
        problem_free(&p);
    }
    assert_int_equal(trnblasDestroy(h), TRNBLAS_STATUS_SUCCESS);
}

/* Strided and pointer-array batches of every combination, beta = 0 over a
 * C of NaN (which must not be read). */
static void test_batches_and_beta_zero(void **state) {
    (void)state;
    trnblasHandle_t h;
    assert_int_equal(trnblasCreate(&h), TRNBLAS_STATUS_SUCCESS);
    for (size_t ci = 0; ci < NCOMBOS; ci++) {
        const combo *c = &combos[ci];
        problem p;
        problem_init(&p, c->ab, c->c, 'T', 'N', 19, 30, 33, 3, c->alpha, c->beta, 0);
        assert_int_equal(run_ex(h, &p, c->ct, STRIDED), TRNBLAS_STATUS_SUCCESS);
        problem_check(&p);
        problem_free(&p);
        problem_init(&p, c->ab, c->c, 'N', 'T', 21, 26, 17, 3, c->alpha, 0.0, 1);
        assert_int_equal(run_ex(h, &p, c->ct, LISTED), TRNBLAS_STATUS_SUCCESS);
        problem_check(&p);
        problem_free(&p);
        /* alpha = 0: C = beta C, A and B not needed */
        problem_init(&p, c->ab, c->c, 'N', 'N', 7, 5, 4, 1, 0.0, c->beta, 0);
        assert_int_equal(run_ex(h, &p, c->ct, ONE), TRNBLAS_STATUS_SUCCESS);
        problem_check(&p);
        problem_free(&p);
        /* GemmGroupedBatchedEx's 16-bit rows: Atype = Btype = Ctype R_16F or
         * R_16BF with COMPUTE_32F (float scalars); its other narrow
         * combinations are NOT_SUPPORTED. */
        const int grouped_row = c->ab == c->c && (c->c == TRNSCI_R_16F || c->c == TRNSCI_R_16BF) &&
                                c->ct == TRNBLAS_COMPUTE_32F;
        problem_init(&p, c->ab, c->c, 'T', 'T', 9, 14, 23, 3, c->alpha, c->beta, 0);
        const trnblasStatus_t gst = run_ex(h, &p, c->ct, GROUPED);
        if (grouped_row) {
            assert_int_equal(gst, TRNBLAS_STATUS_SUCCESS);
            problem_check(&p);
        } else {
            assert_int_equal(gst, TRNBLAS_STATUS_NOT_SUPPORTED);
        }
        problem_free(&p);
    }
    assert_int_equal(trnblasDestroy(h), TRNBLAS_STATUS_SUCCESS);
}

/* Hgemm and its batched forms, every transpose, beta = 0 over NaN. */
static void test_hgemm(void **state) {
    (void)state;
    trnblasHandle_t h;
    assert_int_equal(trnblasCreate(&h), TRNBLAS_STATUS_SUCCESS);
    const char ts[2] = {'N', 'T'};
    for (int t = 0; t < 4; t++) {
        problem p;
        problem_init(&p, TRNSCI_R_16F, TRNSCI_R_16F, ts[t & 1], ts[t >> 1], 33, 50, 64, 1, 0.5, 1.5,
                     0);
        assert_int_equal(run_h(h, &p, ONE), TRNBLAS_STATUS_SUCCESS);
        problem_check(&p);
        problem_free(&p);
        problem_init(&p, TRNSCI_R_16F, TRNSCI_R_16F, ts[t & 1], ts[t >> 1], 12, 9, 20, 4, -1.0, 0.0,
                     1);
        assert_int_equal(run_h(h, &p, STRIDED), TRNBLAS_STATUS_SUCCESS);
        problem_check(&p);
        problem_free(&p);
        problem_init(&p, TRNSCI_R_16F, TRNSCI_R_16F, ts[t & 1], ts[t >> 1], 8, 27, 5, 3, 2.0, -0.5,
                     0);
        assert_int_equal(run_h(h, &p, LISTED), TRNBLAS_STATUS_SUCCESS);
        problem_check(&p);
        problem_free(&p);
    }
    assert_int_equal(trnblasDestroy(h), TRNBLAS_STATUS_SUCCESS);
}

/* Device pointer mode gives host mode's bits; a result past 65504 is
 * infinite in half (and finite in R_32F). */
static void test_device_scalars_and_overflow(void **state) {
    (void)state;
    trnblasHandle_t h;
    assert_int_equal(trnblasCreate(&h), TRNBLAS_STATUS_SUCCESS);
    problem p;
    problem_init(&p, TRNSCI_R_16F, TRNSCI_R_16F, 'N', 'T', 16, 30, 12, 1, 1.5, -0.75, 0);
    assert_int_equal(run_h(h, &p, ONE), TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(trnsciDeviceSynchronize(), trnsciSuccess);
    const size_t cb = p.sc * 2;
    uint16_t *host_mode = malloc(cb), *dev_mode = malloc(cb);
    assert_true(host_mode && dev_mode);
    assert_int_equal(trnsciMemcpy(host_mode, p.dc, cb, trnsciMemcpyDeviceToHost), trnsciSuccess);
    assert_int_equal(trnsciMemcpy(p.dc, p.hc, cb, trnsciMemcpyHostToDevice), trnsciSuccess);
    const scalars s = make_scalars(1.5, -0.75);
    void *ds = dev_upload(s.h, sizeof(s.h));
    assert_int_equal(trnblasSetPointerMode(h, TRNBLAS_POINTER_MODE_DEVICE), TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(trnblasHgemm(h, TRNBLAS_OP_N, TRNBLAS_OP_T, p.m, p.n, p.k, ds, p.da, p.lda,
                                  p.db, p.ldb, (const trnsciHalf *)ds + 1, p.dc, p.ldc),
                     TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(trnsciDeviceSynchronize(), trnsciSuccess);
    assert_int_equal(trnsciMemcpy(dev_mode, p.dc, cb, trnsciMemcpyDeviceToHost), trnsciSuccess);
    assert_memory_equal(host_mode, dev_mode, cb);
    assert_int_equal(trnblasSetPointerMode(h, TRNBLAS_POINTER_MODE_HOST), TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(trnsciFree(ds), trnsciSuccess);
    free(host_mode);
    free(dev_mode);
    problem_free(&p);

    /* 300 * 300 = 90000 > 65504: +inf in half; 90000 exactly in R_32F. */
    const trnsciHalf a = trnsciFloatToHalf(300.0f), zero = trnsciFloatToHalf(0.0f);
    const trnsciHalf one = trnsciFloatToHalf(1.0f);
    void *da = dev_upload(&a, 2), *dc = dev_upload(&zero, 2);
    assert_int_equal(
        trnblasHgemm(h, TRNBLAS_OP_N, TRNBLAS_OP_N, 1, 1, 1, &one, da, 1, da, 1, &zero, dc, 1),
        TRNBLAS_STATUS_SUCCESS);
    trnsciHalf got;
    assert_int_equal(trnsciMemcpy(&got.x, dc, 2, trnsciMemcpyDeviceToHost), trnsciSuccess);
    assert_int_equal(got.x, 0x7c00);
    /* The _64 form: the same call, and sizes beyond int refused. */
    got.x = 0;
    assert_int_equal(trnsciMemcpy(dc, &zero.x, 2, trnsciMemcpyHostToDevice), trnsciSuccess);
    assert_int_equal(
        trnblasHgemm_64(h, TRNBLAS_OP_N, TRNBLAS_OP_N, 1, 1, 1, &one, da, 1, da, 1, &zero, dc, 1),
        TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(trnsciMemcpy(&got.x, dc, 2, trnsciMemcpyDeviceToHost), trnsciSuccess);
    assert_int_equal(got.x, 0x7c00);
    assert_int_equal(trnblasHgemm_64(h, TRNBLAS_OP_N, TRNBLAS_OP_N, INT64_C(1) << 31, 1, 1, &one,
                                     da, INT64_C(1) << 31, da, 1, &zero, dc, INT64_C(1) << 31),
                     TRNBLAS_STATUS_NOT_SUPPORTED);
    float f = 0.0f, onef = 1.0f, zf = 0.0f;
    void *df = dev_upload(&f, 4);
    assert_int_equal(trnblasGemmEx(h, TRNBLAS_OP_N, TRNBLAS_OP_N, 1, 1, 1, &onef, da, TRNSCI_R_16F,
                                   1, da, TRNSCI_R_16F, 1, &zf, df, TRNSCI_R_32F, 1,
                                   TRNBLAS_COMPUTE_32F, TRNBLAS_GEMM_DEFAULT),
                     TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(trnsciMemcpy(&f, df, 4, trnsciMemcpyDeviceToHost), trnsciSuccess);
    assert_true(f == 90000.0f);
    assert_int_equal(trnsciFree(da), trnsciSuccess);
    assert_int_equal(trnsciFree(dc), trnsciSuccess);
    assert_int_equal(trnsciFree(df), trnsciSuccess);
    assert_int_equal(trnblasDestroy(h), TRNBLAS_STATUS_SUCCESS);
}

/* ---- complex int8 storage (C_8I A and B, C_32F C) ----------------------------- */

/* Bound. The inputs are widened exactly and the daemon runs one FP32
 * CGEMM. Each real component of an element of alpha op(A) op(B) + beta C
 * is then a sum of at most 2k + 4 rounded real products and sums, so its
 * error is <= gamma_{2k+4} times the sum of the moduli of its real terms,
 * which is <= sqrt(2) (|alpha| sum |a||b| + |beta||c|) = sqrt(2) M (per
 * complex product, |xr yr| + |xi yi| and |xr yi| + |xi yr| are each <=
 * |x||y| by Cauchy-Schwarz); the modulus of the error is then <= 2
 * gamma_{2k+4} M, with gamma_n taken as 1.01 n u, u = 2^-24 (so about
 * 4k eps32 sum |a||b|). C's padding must come back untouched. */
static void problem_check_c8i(const problem *p) {
    assert_int_equal(trnsciDeviceSynchronize(), trnsciSuccess);
    const size_t total = p->sc * (size_t)p->batch;
    float *got = malloc(total * 8);
    assert_non_null(got);
    assert_int_equal(trnsciMemcpy(got, p->dc, total * 8, trnsciMemcpyDeviceToHost), trnsciSuccess);
    const size_t mn = (size_t)p->m * (size_t)p->n;
    double *r = malloc(2 * mn * sizeof(double)), *mm = malloc(mn * sizeof(double));
    assert_true(r && mm);
    const double bound_factor = 2.0 * 1.01 * (2.0 * p->k + 4.0) * 0x1p-24;
    for (int b = 0; b < p->batch; b++) {
        reference(p, b, r, mm);
        for (size_t e = 0; e < p->sc; e++) {
            const size_t at = (size_t)b * p->sc + e, row = e % (size_t)p->ldc;
            const size_t col = e / (size_t)p->ldc;
            if (row >= (size_t)p->m || col >= (size_t)p->n) {
                if (memcmp(got + 2 * at, (const float *)p->hc + 2 * at, 8) != 0)
                    fail_msg("c8: matrix %d: padding element %zu changed", b, e);
                continue;
            }
            const size_t q = row + col * (size_t)p->m;
            const double dr = got[2 * at] - r[q], di = got[2 * at + 1] - r[mn + q];
            const double bound = bound_factor * mm[q];
            if (!(hypot(dr, di) <= bound))
                fail_msg("c8 x c8 -> c32 %c%c m=%d n=%d k=%d: matrix %d (%zu, %zu): got "
                         "(%.9g, %.9g), numpy (%.9g, %.9g), bound %.3g",
                         p->ta, p->tb, p->m, p->n, p->k, b, row, col, got[2 * at], got[2 * at + 1],
                         r[q], r[mn + q], bound);
        }
    }
    free(r);
    free(mm);
    free(got);
}

static void c8i_init(problem *p, char ta, char tb, int m, int n, int k, int batch, double ar,
                     double ai, double br, double bi, int c_nan) {
    problem_init(p, TRNSCI_C_8I, TRNSCI_C_32F, ta, tb, m, n, k, batch, ar, br, c_nan);
    p->alpha_im = ai;
    p->beta_im = bi;
}

/* GemmEx (COMPUTE_32F) or its batched forms on a C_8I problem; alpha and
 * beta are complex floats, read from s (host or device memory). */
static trnblasStatus_t run_c8i(trnblasHandle_t h, problem *p, form f, const float *s) {
    const trnblasOperation_t ta = op_of(p->ta), tb = op_of(p->tb);
    const trnblasComputeType_t ct = TRNBLAS_COMPUTE_32F;
    if (f == ONE)
        return trnblasGemmEx(h, ta, tb, p->m, p->n, p->k, s, p->da, TRNSCI_C_8I, p->lda, p->db,
                             TRNSCI_C_8I, p->ldb, s + 2, p->dc, TRNSCI_C_32F, p->ldc, ct,
                             TRNBLAS_GEMM_DEFAULT);
    if (f == STRIDED)
        return trnblasGemmStridedBatchedEx(h, ta, tb, p->m, p->n, p->k, s, p->da, TRNSCI_C_8I,
                                           p->lda, (long long)p->sa, p->db, TRNSCI_C_8I, p->ldb,
                                           (long long)p->sb, s + 2, p->dc, TRNSCI_C_32F, p->ldc,
                                           (long long)p->sc, p->batch, ct, TRNBLAS_GEMM_DEFAULT);
    void *ha[16], *hb[16], *hc[16];
    assert_true(p->batch <= 16);
    void *la = pointer_array(p->da, p->sa, 2, p->batch, ha);
    void *lb = pointer_array(p->db, p->sb, 2, p->batch, hb);
    void *lc = pointer_array(p->dc, p->sc, 8, p->batch, hc);
    const trnblasStatus_t st = trnblasGemmBatchedEx(
        h, ta, tb, p->m, p->n, p->k, s, (const void *const *)la, TRNSCI_C_8I, p->lda,
        (const void *const *)lb, TRNSCI_C_8I, p->ldb, s + 2, (void *const *)lc, TRNSCI_C_32F,
        p->ldc, p->batch, ct, TRNBLAS_GEMM_DEFAULT);
    assert_int_equal(trnsciDeviceSynchronize(), trnsciSuccess);
    assert_int_equal(trnsciFree(la), trnsciSuccess);
    assert_int_equal(trnsciFree(lb), trnsciSuccess);
    assert_int_equal(trnsciFree(lc), trnsciSuccess);
    return st;
}

/* GemmEx's complex int8 rows: every transpose pair of N, T, C (n = 53:
 * 24-column blocks over both cores), CgemmEx, a GEMM and a strided batch
 * large enough to be split over both cores, pointer-array batches with
 * beta = 0 over a C of NaN, alpha = 0, device pointer mode, and the
 * grouped form's NOT_SUPPORTED. */
static void test_gemm_c8i(void **state) {
    (void)state;
    trnblasHandle_t h;
    assert_int_equal(trnblasCreate(&h), TRNBLAS_STATUS_SUCCESS);
    const char ts[3] = {'N', 'T', 'C'};
    const float s[4] = {0.75f, -1.5f, 0.5f, 0.25f}; /* alpha, beta */
    problem p;
    for (int t = 0; t < 9; t++) {
        c8i_init(&p, ts[t % 3], ts[t / 3], 37, 53, 45, 1, s[0], s[1], s[2], s[3], 0);
        assert_int_equal(run_c8i(h, &p, ONE, s), TRNBLAS_STATUS_SUCCESS);
        problem_check_c8i(&p);
        problem_free(&p);
    }
    c8i_init(&p, 'C', 'N', 20, 31, 17, 1, s[0], s[1], s[2], s[3], 0);
    assert_int_equal(trnblasCgemmEx(h, TRNBLAS_OP_C, TRNBLAS_OP_N, p.m, p.n, p.k,
                                    (const trnComplex *)s, p.da, TRNSCI_C_8I, p.lda, p.db,
                                    TRNSCI_C_8I, p.ldb, (const trnComplex *)(s + 2), p.dc,
                                    TRNSCI_C_32F, p.ldc),
                     TRNBLAS_STATUS_SUCCESS);
    problem_check_c8i(&p);
    problem_free(&p);
    c8i_init(&p, 'T', 'C', 200, 300, 300, 1, s[0], s[1], s[2], s[3], 0);
    assert_int_equal(run_c8i(h, &p, ONE, s), TRNBLAS_STATUS_SUCCESS);
    problem_check_c8i(&p);
    problem_free(&p);
    c8i_init(&p, 'N', 'C', 64, 260, 160, 3, s[0], s[1], s[2], s[3], 0);
    assert_int_equal(run_c8i(h, &p, STRIDED, s), TRNBLAS_STATUS_SUCCESS);
    problem_check_c8i(&p);
    problem_free(&p);
    /* Pointer arrays, beta = 0 over NaN (C not read). */
    const float s0[4] = {-1.25f, 2.0f, 0.0f, 0.0f};
    c8i_init(&p, 'C', 'T', 21, 26, 17, 3, s0[0], s0[1], 0.0, 0.0, 1);
    assert_int_equal(run_c8i(h, &p, LISTED, s0), TRNBLAS_STATUS_SUCCESS);
    problem_check_c8i(&p);
    problem_free(&p);
    /* alpha = 0: C = beta C. */
    const float sa0[4] = {0.0f, 0.0f, -0.5f, 1.5f};
    c8i_init(&p, 'N', 'N', 7, 5, 4, 1, 0.0, 0.0, sa0[2], sa0[3], 0);
    assert_int_equal(run_c8i(h, &p, ONE, sa0), TRNBLAS_STATUS_SUCCESS);
    problem_check_c8i(&p);
    problem_free(&p);
    /* Device pointer mode: complex float scalars in device memory. */
    void *ds = dev_upload(s, sizeof(s));
    assert_int_equal(trnblasSetPointerMode(h, TRNBLAS_POINTER_MODE_DEVICE), TRNBLAS_STATUS_SUCCESS);
    c8i_init(&p, 'T', 'N', 19, 30, 33, 2, s[0], s[1], s[2], s[3], 0);
    assert_int_equal(run_c8i(h, &p, STRIDED, ds), TRNBLAS_STATUS_SUCCESS);
    problem_check_c8i(&p);
    problem_free(&p);
    assert_int_equal(trnblasSetPointerMode(h, TRNBLAS_POINTER_MODE_HOST), TRNBLAS_STATUS_SUCCESS);
    assert_int_equal(trnsciFree(ds), trnsciSuccess);
    /* GemmGroupedBatchedEx has no complex int8 row. */
    const trnblasOperation_t tn[1] = {TRNBLAS_OP_N};
    const int one[1] = {1}, two[1] = {2};
    void *buf = NULL;
    assert_int_equal(trnsciMalloc(&buf, 256), trnsciSuccess);
    const void *arr[1] = {buf};
    assert_int_equal(trnblasGemmGroupedBatchedEx(h, tn, tn, two, two, two, s, arr, TRNSCI_C_8I, two,
                                                 arr, TRNSCI_C_8I, two, s + 2, (void *const *)arr,
                                                 TRNSCI_C_32F, two, 1, one, TRNBLAS_COMPUTE_32F),
                     TRNBLAS_STATUS_NOT_SUPPORTED);
    assert_int_equal(trnsciFree(buf), trnsciSuccess);
    assert_int_equal(trnblasDestroy(h), TRNBLAS_STATUS_SUCCESS);
}

/* Combinations outside cublasGemmEx's table are NOT_SUPPORTED, naming the
 * types; the daemon keeps serving. */
static void test_not_supported(void **state) {
    (void)state;
    trnblasHandle_t h;
    assert_int_equal(trnblasCreate(&h), TRNBLAS_STATUS_SUCCESS);
    void *buf = NULL;
    assert_int_equal(trnsciMalloc(&buf, 4096), trnsciSuccess);
    const float onef = 1.0f;
    const struct {
        trnsciDataType_t a, b, c;
        trnblasComputeType_t ct;
    } bad[] = {
        {TRNSCI_R_16F, TRNSCI_R_16F, TRNSCI_R_16F, TRNBLAS_COMPUTE_32F_FAST_TF32},
        {TRNSCI_R_16F, TRNSCI_R_16F, TRNSCI_R_32F, TRNBLAS_COMPUTE_16F},
        {TRNSCI_R_16F, TRNSCI_R_16F, TRNSCI_R_16F, TRNBLAS_COMPUTE_64F},
        {TRNSCI_R_16F, TRNSCI_R_16BF, TRNSCI_R_32F, TRNBLAS_COMPUTE_32F},
        {TRNSCI_R_16F, TRNSCI_R_16F, TRNSCI_R_16BF, TRNBLAS_COMPUTE_32F},
        {TRNSCI_R_16BF, TRNSCI_R_16BF, TRNSCI_R_16BF, TRNBLAS_COMPUTE_16F},
        {TRNSCI_R_16BF, TRNSCI_R_16BF, TRNSCI_R_16F, TRNBLAS_COMPUTE_32F},
        {TRNSCI_R_8I, TRNSCI_R_8I, TRNSCI_R_8I, TRNBLAS_COMPUTE_32I},
        {TRNSCI_R_8I, TRNSCI_R_8I, TRNSCI_R_32I, TRNBLAS_COMPUTE_32F},
        {TRNSCI_R_8I, TRNSCI_R_8I, TRNSCI_R_32F, TRNBLAS_COMPUTE_32I},
        {TRNSCI_R_32F, TRNSCI_R_32F, TRNSCI_R_16F, TRNBLAS_COMPUTE_32F},
        {TRNSCI_R_32F, TRNSCI_R_32F, TRNSCI_R_32F, TRNBLAS_COMPUTE_16F},
        {TRNSCI_R_32I, TRNSCI_R_32I, TRNSCI_R_32I, TRNBLAS_COMPUTE_32I},
        {TRNSCI_C_16F, TRNSCI_C_16F, TRNSCI_C_16F, TRNBLAS_COMPUTE_32F},
        {TRNSCI_C_8I, TRNSCI_C_8I, TRNSCI_C_8I, TRNBLAS_COMPUTE_32F},
        {TRNSCI_C_8I, TRNSCI_C_8I, TRNSCI_C_32F, TRNBLAS_COMPUTE_32I},
        {TRNSCI_C_8I, TRNSCI_C_8I, TRNSCI_C_32F, TRNBLAS_COMPUTE_16F},
        {TRNSCI_C_8I, TRNSCI_C_8I, TRNSCI_C_32F, TRNBLAS_COMPUTE_32F_FAST_TF32},
        {TRNSCI_C_8I, TRNSCI_C_8I, TRNSCI_C_32F, TRNBLAS_COMPUTE_64F},
        {TRNSCI_C_8I, TRNSCI_R_8I, TRNSCI_C_32F, TRNBLAS_COMPUTE_32F},
        {TRNSCI_C_8I, TRNSCI_C_8I, TRNSCI_R_32F, TRNBLAS_COMPUTE_32F},
        {TRNSCI_C_8I, TRNSCI_C_8I, TRNSCI_C_64F, TRNBLAS_COMPUTE_64F},
        {TRNSCI_R_8I, TRNSCI_R_8I, TRNSCI_C_32F, TRNBLAS_COMPUTE_32F},
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        const trnblasStatus_t st =
            trnblasGemmEx(h, TRNBLAS_OP_N, TRNBLAS_OP_N, 2, 2, 2, &onef, buf, bad[i].a, 2, buf,
                          bad[i].b, 2, &onef, buf, bad[i].c, 2, bad[i].ct, TRNBLAS_GEMM_DEFAULT);
        if (st != TRNBLAS_STATUS_NOT_SUPPORTED)
            fail_msg("combination %zu (%d, %d, %d, compute %d): status %d, not NOT_SUPPORTED", i,
                     (int)bad[i].a, (int)bad[i].b, (int)bad[i].c, (int)bad[i].ct, (int)st);
        if (!strstr(trnsciGetLastErrorMessage(), "supported"))
            fail_msg("combination %zu: message \"%s\"", i, trnsciGetLastErrorMessage());
    }
    /* Bad arguments keep cuBLAS's INVALID_VALUE on the new types. */
    const trnsciHalf one = trnsciFloatToHalf(1.0f);
    assert_int_equal(
        trnblasHgemm(h, TRNBLAS_OP_N, TRNBLAS_OP_N, 4, 2, 2, &one, buf, 3, buf, 2, &one, buf, 4),
        TRNBLAS_STATUS_INVALID_VALUE);
    assert_non_null(strstr(trnsciGetLastErrorMessage(), "lda"));
    assert_int_equal(
        trnblasHgemm(h, TRNBLAS_OP_N, TRNBLAS_OP_N, 2, 2, 2, NULL, buf, 2, buf, 2, &one, buf, 2),
        TRNBLAS_STATUS_INVALID_VALUE);
    /* A half C at an odd byte offset is misaligned. */
    assert_int_equal(trnblasHgemm(h, TRNBLAS_OP_N, TRNBLAS_OP_N, 2, 2, 2, &one, buf, 2, buf, 2,
                                  &one, (trnsciHalf *)((char *)buf + 1), 2),
                     TRNBLAS_STATUS_INVALID_VALUE);
    assert_int_equal(trnsciDeviceSynchronize(), trnsciSuccess);
    assert_int_equal(trnsciFree(buf), trnsciSuccess);
    assert_int_equal(trnblasDestroy(h), TRNBLAS_STATUS_SUCCESS);
}

static int connect_unix(void **state) {
    (void)state;
    return trnsciInit(daemon_under_test.unix_addr) == trnsciSuccess ? 0 : -1;
}

static int connect_tcp(void **state) {
    (void)state;
    return trnsciInit(daemon_under_test.tcp_addr) == trnsciSuccess ? 0 : -1;
}

static int disconnect(void **state) {
    (void)state;
    trnsciDeviceReset();
    return th_wait_daemon_idle(daemon_under_test.unix_addr, 5000);
}

int main(void) {
    snprintf(work_dir, sizeof(work_dir), "/tmp/trnsci-gemmhalf-XXXXXX");
    if (!mkdtemp(work_dir)) {
        perror("mkdtemp");
        return 1;
    }
    const char *const args[] = {"--cores", "2", NULL};
    if (th_daemon_start(&daemon_under_test, args) != 0) {
        fprintf(stderr, "could not start trnscid\n");
        return 1;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gemm_ex_combos), cmocka_unit_test(test_batches_and_beta_zero),
        cmocka_unit_test(test_hgemm),          cmocka_unit_test(test_device_scalars_and_overflow),
        cmocka_unit_test(test_not_supported),  cmocka_unit_test(test_gemm_c8i),
    };
    int failed = cmocka_run_group_tests_name("16-bit gemm over unix socket", tests, connect_unix,
                                             disconnect);
    failed += cmocka_run_group_tests_name("16-bit gemm over tcp", tests, connect_tcp, disconnect);
    numpy_coproc_stop(&numpy_in, &numpy_out, numpy_pid);
    failed += th_daemon_stop_checked(&daemon_under_test, "trnscid");
    th_remove_dir(work_dir);
    return failed ? 1 : 0;
}
