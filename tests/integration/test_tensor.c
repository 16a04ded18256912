/*
 * test_tensor.c — trntensor through real daemons, over the local transport
 * and gRPC over TCP, against numpy (tensor_ref.py under Debian's python3):
 *
 *  - Contractions of every pattern class — matrix product, transposed
 *    output, batch modes (also in the middle of operands), outer and inner
 *    products, 3- to 6-mode tensors, diagonals, non-contiguous strides
 *    (padded, and modes stored in reverse order, which makes the plan swap
 *    A and B or pack operands) — through the cuTENSOR-shaped API (C apart
 *    from D, beta != 0, or C = NULL with beta = 0) and through
 *    trntensorEinsum (C = D). Tolerances (Higham §3.5, docs/numerics.md),
 *    with S = |alpha| sum |a||b| + |beta||c| from numpy and k the number of
 *    products summed per element: 32F/64F: gamma_{k+2} S; 32F_FAST_16BF /
 *    _FAST_TF32: (2u_r + u_r^2) S + gamma_{k+2} (1 + u_r)^2 S (u_r = 2^-8 /
 *    2^-11: each input rounded once, products exact in FP32); 32F_BF16X3:
 *    3.1 2^-16 S + gamma_{3k+4} S (dropped a1 b1 and split remainders, three
 *    FP32 GEMMs); 64F_EMULATED: 1.01 k 10 2^-56 + 1.02 gamma_{36k} k + gamma_3 S
 *    (gemm_ozaki.c's bound with 2^(e_i+f_j) <= 1: inputs in [-1, 1)). The
 *    padding around D must come back untouched.
 *  - Element-wise trinary / binary, permutations and reductions (every
 *    binary operator, some unary ones, broadcasting) against numpy within
 *    4 u |result| + 4 u S (computed in double, rounded once).
 *  - Permutations that convert between R_64F and R_32F (typeA != typeB),
 *    against numpy: the FP64 -> FP32 conversion of a 3-mode tensor of 10^5
 *    elements in place order (packed and padded; rounding ties, FP32
 *    subnormals, overflow to infinity, -0, infinities and a NaN among the
 *    values), FP32 -> FP64, both computed in 32F and in 64F, must equal
 *    numpy's astype bit for bit; 4-mode transpositions with alpha != 1
 *    (exact as well: one product, one rounding in the compute type) and
 *    with opA = SQRT (64F compute: bitwise equal to numpy's float64
 *    sqrt-then-multiply; 32F compute: within one rounding of B's type plus
 *    two of the compute type of the float64 value, as every case is); padded
 *    and reversed layouts, padding untouched; SCALAR_TYPE follows the
 *    compute descriptor.
 *  - trntensorEinsumPath's optimal order equals numpy.einsum_path's.
 *  - A contraction large enough for two shards is bitwise equal on a 1-core
 *    and a 2-core daemon, with padded and reversed layouts; so are two
 *    converting permutations of 630 000 elements.
 *  - A contraction plan made by one process is a plan-cache hit for
 *    another process (counted by the daemon).
 *  - Bad input: extent mismatch, repeated output mode, a mode of D in
 *    neither input, too many modes, overlapping output strides, operands
 *    past their allocation, bad einsum strings: the documented status and a
 *    message naming the rule; the daemon stays up. Half complex descriptors, mixed
 *    data types in a binary op, reduction or contraction, and a converting
 *    permutation with a precision-mode compute descriptor are
 *    TRNTENSOR_STATUS_NOT_SUPPORTED with both types named.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* cmocka.h needs these before it; keep the order. */
// clang-format off
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
// clang-format on

#include "harness.h"
#include "sparse_util.h"
#include "trnsci/trntensor.h"

static th_daemon one_core, two_cores;
static char tmp_dir[256];
static su_transport local_t = {"local", NULL}, grpc_t = {"grpc", NULL};

#define SENTINEL 1234.5

/* ---- operands ---------------------------------------------------------------------- */

/* Layouts: packed; padded (each stride skips 1 extra element per mode);
 * reversed (the last mode fastest, padded). */
enum { PACKED = 0, PADDED = 1, REVERSED = 2 };

typedef struct operand {
    int n;
    int64_t extent[TRNTENSOR_MAX_MODES], stride[TRNTENSOR_MAX_MODES];
    int32_t mode[TRNTENSOR_MAX_MODES];
    size_t span;  /* elements of the buffer (layout span plus a tail) */
    double *host; /* the buffer's values */
    void *dev;
} operand;

static uint64_t rng = 88172645463325252ull;

static double uniform(void) { /* in [-1, 1) */
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (double)(rng >> 11) * 0x1p-52 - 1.0;
}

/* Extent of letter c in spec "i37k29j41". */
static int64_t extent_of(const char *spec, char c) {
    for (const char *p = spec; *p; p++)
        if (*p == c && p[1] >= '0' && p[1] <= '9')
            return strtoll(p + 1, NULL, 10);
    fail_msg("no extent for '%c' in %s", c, spec);
    return 0;
}

static void operand_make(operand *o, const char *letters, const char *extents, int layout, int dbl,
                         double fill) {
    memset(o, 0, sizeof(*o));
    o->n = (int)strlen(letters);
    for (int i = 0; i < o->n; i++) {
        o->extent[i] = extent_of(extents, letters[i]);
        o->mode[i] = letters[i];
    }
    int64_t s = 1;
    for (int k = 0; k < o->n; k++) {
        const int i = layout == REVERSED ? o->n - 1 - k : k;
        o->stride[i] = s;
        s *= o->extent[i] + (layout == PACKED ? 0 : 1);
    }
    o->span = (size_t)s + 3;
    o->host = malloc(o->span * sizeof(double));
    for (size_t i = 0; i < o->span; i++)
        o->host[i] = isnan(fill) ? uniform() : fill;
    if (!dbl) /* values exactly representable in float */
        for (size_t i = 0; i < o->span; i++)
            o->host[i] = (float)o->host[i];
}

static void operand_upload(operand *o, int dbl) {
    const size_t es = dbl ? 8 : 4;
    char *buf = malloc(o->span * es);
    for (size_t i = 0; i < o->span; i++) {
        if (dbl)
            memcpy(buf + i * 8, &o->host[i], 8);
        else {
            const float f = (float)o->host[i];
            memcpy(buf + i * 4, &f, 4);
        }
    }
    o->dev = su_dev_put(buf, o->span * es);
    free(buf);
}

/* The device buffer's values back into host (as doubles). */
static void operand_download(operand *o, int dbl) {
    const size_t es = dbl ? 8 : 4;
    char *buf = su_dev_get(o->dev, o->span * es);
    for (size_t i = 0; i < o->span; i++) {
        if (dbl)
            memcpy(&o->host[i], buf + i * 8, 8);
        else {
            float f;
            memcpy(&f, buf + i * 4, 4);
            o->host[i] = f;
        }
    }
    free(buf);
}

/* Offset of logical element e (first mode fastest). */
static size_t offset_of(const operand *o, size_t e) {
    size_t off = 0;
    for (int i = 0; i < o->n; i++) {
        off += (e % (size_t)o->extent[i]) * (size_t)o->stride[i];
        e /= (size_t)o->extent[i];
    }
    return off;
}

static size_t elements(const operand *o) {
    size_t n = 1;
    for (int i = 0; i < o->n; i++)
        n *= (size_t)o->extent[i];
    return n;
}

/* The logical tensor in Fortran order, as tensor_ref.py reads it. */
static void operand_write(const operand *o, const char *name, const char *suffix) {
    const size_t n = elements(o);
    double *v = malloc(n * sizeof(double));
    for (size_t e = 0; e < n; e++)
        v[e] = o->host[offset_of(o, e)];
    char file[128];
    snprintf(file, sizeof(file), "%s%s", name, suffix);
    su_write_file(tmp_dir, file, v, n * sizeof(double));
    free(v);
}

static void extents_text(const operand *o, char *buf, size_t len) {
    size_t w = 0;
    buf[0] = '\0';
    if (o->n == 0)
        snprintf(buf, len, "-");
    for (int i = 0; i < o->n; i++)
        w += (size_t)snprintf(buf + w, len - w, i ? ",%lld" : "%lld", (long long)o->extent[i]);
}

static void operand_free(operand *o) {
    if (o->dev)
        trnsciFree(o->dev);
    free(o->host);
}

static trntensorTensorDescriptor_t describe(trntensorHandle_t h, const operand *o, int dbl) {
    trntensorTensorDescriptor_t d = NULL;
    assert_int_equal(trntensorCreateTensorDescriptor(h, &d, (uint32_t)o->n, o->extent, o->stride,
                                                     dbl ? TRNSCI_R_64F : TRNSCI_R_32F, 0),
                     TRNTENSOR_STATUS_SUCCESS);
    return d;
}

/* ---- contraction cases --------------------------------------------------------------- */

enum { CT_32F, CT_64F, CT_16BF, CT_TF32, CT_BF16X3, CT_64F_EMU };

typedef struct ccase {
    const char *subs; /* "ik,kj->ij" */
    const char *ext;  /* "i37k29j41" */
    int layout_a, layout_b, layout_d;
    int compute;
    double alpha, beta;
    int einsum; /* through trntensorEinsum (C = D) instead of the full API */
} ccase;

static const ccase ccases[] = {
    {"ik,kj->ij", "i37k29j41", PACKED, PACKED, PACKED, CT_32F, 1.0, 0.0, 0},
    {"ik,kj->ij", "i37k29j41", PADDED, REVERSED, PADDED, CT_32F, 0.5, -1.5, 0},
    {"ik,kj->ji", "i23k17j31", PACKED, PACKED, PACKED, CT_32F, 1.0, 0.5, 0},
    {"ki,jk->ij", "i23k17j31", REVERSED, PADDED, REVERSED, CT_64F, -2.0, 1.0, 0},
    {"bik,bkj->bij", "b3i20k11j26", PACKED, PACKED, PACKED, CT_32F, 1.0, 0.0, 0},
    {"ibk,kjb->bji", "b4i9k13j10", PADDED, PACKED, REVERSED, CT_64F, 1.0, 0.25, 0},
    {"i,j->ij", "i30j27", PACKED, PADDED, PACKED, CT_32F, 1.0, 0.0, 0},
    {"i,i->", "i100", PACKED, PADDED, PACKED, CT_64F, 1.0, 2.0, 0},
    {"abcd,cdef->abef", "a3b4c5d6e3f4", PACKED, PACKED, PACKED, CT_32F, 1.0, 1.0, 0},
    {"abcdef,defg->gbac", "a2b3c2d4e3f2g5", PADDED, REVERSED, PACKED, CT_64F, 1.5, 0.0, 0},
    {"pqr,rqs->spq", "p6q5r7s8", REVERSED, REVERSED, REVERSED, CT_32F, 1.0, -1.0, 0},
    {"ik,kj->ij", "i40k64j33", PACKED, PACKED, PACKED, CT_16BF, 1.0, 0.5, 0},
    {"ik,kj->ij", "i40k64j33", PADDED, REVERSED, PACKED, CT_TF32, 1.0, 0.0, 0},
    {"bik,bkj->bij", "b2i30k64j20", PACKED, PACKED, PACKED, CT_BF16X3, 1.0, 1.0, 0},
    {"ik,kj->ij", "i30k50j20", PACKED, REVERSED, PACKED, CT_64F_EMU, 1.0, 0.5, 0},
    /* einsum (C = D) */
    {"ia,ja->ij", "i19j23a15", PACKED, PACKED, PACKED, CT_32F, 1.0, 0.5, 1},
    {"ii,ij->j", "i12j9", PACKED, PADDED, PACKED, CT_64F, 1.0, 0.0, 1},
    {"ii->", "i17", PADDED, PACKED, PACKED, CT_64F, 1.0, 1.0, 1},
    {"ijk->kji", "i5j6k7", PACKED, PACKED, PADDED, CT_32F, 2.0, 0.0, 1},
    {"ijk->j", "i5j6k7", REVERSED, PACKED, PACKED, CT_64F, 1.0, -1.0, 1},
};
#define NCCASES (sizeof(ccases) / sizeof(ccases[0]))

static trntensorComputeDescriptor_t compute_desc(int c) {
    switch (c) {
    case CT_64F: return TRNTENSOR_COMPUTE_DESC_64F;
    case CT_16BF: return TRNTENSOR_COMPUTE_DESC_32F_FAST_16BF;
    case CT_TF32: return TRNTENSOR_COMPUTE_DESC_32F_FAST_TF32;
    case CT_BF16X3: return TRNTENSOR_COMPUTE_DESC_32F_BF16X3;
    case CT_64F_EMU: return TRNTENSOR_COMPUTE_DESC_64F_EMULATED;
    default: return TRNTENSOR_COMPUTE_DESC_32F;
    }
}

static int is_dbl(int c) {
    return c == CT_64F || c == CT_64F_EMU;
}

/* Splits "x,y->z" into its terms (y empty for one operand). */
static void terms(const char *subs, char *x, char *y, char *z) {
    const char *comma = strchr(subs, ','), *arrow = strstr(subs, "->");
    const char *xe = comma ? comma : arrow;
    memcpy(x, subs, (size_t)(xe - subs));
    x[xe - subs] = '\0';
    y[0] = '\0';
    if (comma) {
        memcpy(y, comma + 1, (size_t)(arrow - comma - 1));
        y[arrow - comma - 1] = '\0';
    }
    strcpy(z, arrow + 2);
}

/* Products summed per output element: the extents of input letters not in
 * the output (a repeated letter counts once). */
static double products(const ccase *cs) {
    char x[40], y[20], z[20], seen[40] = "";
    terms(cs->subs, x, y, z);
    double k = 1.0;
    strcat(x, y);
    size_t ns = 0;
    for (char *p = x; *p; p++)
        if (!strchr(z, *p) && !strchr(seen, *p)) {
            k *= (double)extent_of(cs->ext, *p);
            seen[ns++] = *p;
        }
    return k;
}

static double gamma_n(double n, double u) {
    return n * u / (1.0 - n * u);
}

/* The bound on |D - ref| for S (see the top of the file). */
static double bound(const ccase *cs, double s) {
    const double k = products(cs), uf = 0x1p-24, ud = 0x1p-53;
    switch (cs->compute) {
    case CT_64F: return gamma_n(k + 2, ud) * s;
    case CT_16BF: return (2 * 0x1p-8 + 0x1p-16) * s + gamma_n(k + 2, uf) * 1.01 * s;
    case CT_TF32: return (2 * 0x1p-11 + 0x1p-22) * s + gamma_n(k + 2, uf) * 1.01 * s;
    case CT_BF16X3: return 3.1 * 0x1p-16 * s + gamma_n(3 * k + 4, uf) * s;
    case CT_64F_EMU:
        return 1.01 * k * 10 * 0x1p-56 + 1.02 * gamma_n(36 * k, ud) * k + gamma_n(3, ud) * s;
    default: return gamma_n(k + 2, uf) * s;
    }
}

typedef struct cprob {
    operand a, b, c, d;
    int has_b;
} cprob;

/* Makes case i's operands and writes them for tensor_ref.py. */
static void cprob_make(const ccase *cs, int i, cprob *p, FILE *manifest) {
    char x[20], y[20], z[20], name[16], ea[64], eb[64], ec[64];
    terms(cs->subs, x, y, z);
    const int dbl = is_dbl(cs->compute);
    p->has_b = y[0] != '\0';
    operand_make(&p->a, x, cs->ext, cs->layout_a, dbl, NAN);
    if (p->has_b)
        operand_make(&p->b, y, cs->ext, cs->layout_b, dbl, NAN);
    operand_make(&p->c, z, cs->ext, cs->layout_d, dbl, NAN);
    operand_make(&p->d, z, cs->ext, cs->layout_d, dbl, SENTINEL);
    snprintf(name, sizeof(name), "c%d", i);
    operand_write(&p->a, name, ".a");
    if (p->has_b)
        operand_write(&p->b, name, ".b");
    operand_write(&p->c, name, ".c");
    extents_text(&p->a, ea, sizeof(ea));
    extents_text(&p->b, eb, sizeof(eb));
    extents_text(&p->c, ec, sizeof(ec));
    fprintf(manifest, "einsum %s %s %.17g %.17g %s %s %s\n", name, cs->subs, cs->alpha, cs->beta,
            ea, p->has_b ? eb : "", ec);
}

/* Runs case cs on the daemon of the current session; D's buffer in p->d. */
static void cprob_run(trntensorHandle_t h, const ccase *cs, cprob *p) {
    const int dbl = is_dbl(cs->compute);
    operand_upload(&p->a, dbl);
    if (p->has_b)
        operand_upload(&p->b, dbl);
    const float af = (float)cs->alpha, bf = (float)cs->beta;
    const void *alpha = dbl ? (const void *)&cs->alpha : (const void *)&af;
    const void *beta = dbl ? (const void *)&cs->beta : (const void *)&bf;
    trntensorTensorDescriptor_t da = describe(h, &p->a, dbl);
    trntensorTensorDescriptor_t db = p->has_b ? describe(h, &p->b, dbl) : NULL;
    trntensorTensorDescriptor_t dd = describe(h, &p->d, dbl);
    if (cs->einsum) { /* C = D: D starts as C's values */
        memcpy(p->d.host, p->c.host, p->c.span * sizeof(double));
        operand_upload(&p->d, dbl);
        assert_int_equal(trntensorEinsum(h, cs->subs, alpha, da, p->a.dev, db,
                                         p->has_b ? p->b.dev : NULL, beta, dd, p->d.dev,
                                         compute_desc(cs->compute)),
                         TRNTENSOR_STATUS_SUCCESS);
    } else {
        operand_upload(&p->d, dbl);
        if (cs->beta != 0.0)
            operand_upload(&p->c, dbl);
        trntensorOperationDescriptor_t op = NULL;
        assert_int_equal(trntensorCreateContraction(h, &op, da, p->a.mode, TRNTENSOR_OP_IDENTITY,
                                                    db, p->b.mode, TRNTENSOR_OP_IDENTITY, dd,
                                                    p->d.mode, TRNTENSOR_OP_IDENTITY, dd, p->d.mode,
                                                    compute_desc(cs->compute)),
                         TRNTENSOR_STATUS_SUCCESS);
        trntensorPlan_t plan = NULL;
        assert_int_equal(trntensorCreatePlan(h, &plan, op, NULL, 0), TRNTENSOR_STATUS_SUCCESS);
        uint64_t ws = 1;
        assert_int_equal(
            trntensorPlanGetAttribute(h, plan, TRNTENSOR_PLAN_REQUIRED_WORKSPACE, &ws, sizeof(ws)),
            TRNTENSOR_STATUS_SUCCESS);
        assert_int_equal(ws, 0);
        assert_int_equal(trntensorContract(h, plan, alpha, p->a.dev, p->b.dev, beta,
                                           cs->beta != 0.0 ? p->c.dev : NULL, p->d.dev, NULL, 0,
                                           NULL),
                         TRNTENSOR_STATUS_SUCCESS);
        assert_int_equal(trntensorDestroyPlan(plan), TRNTENSOR_STATUS_SUCCESS);
        assert_int_equal(trntensorDestroyOperationDescriptor(op), TRNTENSOR_STATUS_SUCCESS);
    }
    assert_int_equal(trnsciDeviceSynchronize(), trnsciSuccess);
    operand_download(&p->d, dbl);
    trntensorDestroyTensorDescriptor(da);
    trntensorDestroyTensorDescriptor(db);
    trntensorDestroyTensorDescriptor(dd);
}

/* Checks D against NAME.ref / NAME.abs and its padding; returns the worst
 * error / bound. */
static double cprob_check(const ccase *cs, int i, const cprob *p) {
    char name[32];
    size_t bytes;
    snprintf(name, sizeof(name), "c%d.ref", i);
    double *ref = su_read_file(tmp_dir, name, &bytes);
    snprintf(name, sizeof(name), "c%d.abs", i);
    double *s = su_read_file(tmp_dir, name, &bytes);
    const size_t n = elements(&p->d);
    assert_int_equal(bytes, n * sizeof(double));
    char *touched = calloc(p->d.span, 1);
    double worst = 0.0;
    for (size_t e = 0; e < n; e++) {
        const size_t off = offset_of(&p->d, e);
        touched[off] = 1;
        const double err = fabs(p->d.host[off] - ref[e]), b = bound(cs, s[e]);
        if (!(err <= b))
            fail_msg("%s (%s) element %zu: %.17g, numpy %.17g, error %.3g > bound %.3g", cs->subs,
                     cs->ext, e, p->d.host[off], ref[e], err, b);
        if (b > 0 && err / b > worst)
            worst = err / b;
    }
    for (size_t o = 0; o < p->d.span; o++)
        if (!touched[o] && p->d.host[o] != (cs->einsum ? p->c.host[o] : SENTINEL))
            fail_msg("%s: padding element %zu of D changed to %g", cs->subs, o, p->d.host[o]);
    free(touched);
    free(ref);
    free(s);
    return worst;
}

static void cprob_free(cprob *p) {
    operand_free(&p->a);
    if (p->has_b)
        operand_free(&p->b);
    operand_free(&p->c);
    operand_free(&p->d);
}

/* ---- element-wise and reduction cases -------------------------------------------------- */

typedef struct ecase {
    int kind; /* 3 trinary, 2 binary, 1 permutation, 0 reduction */
    const char *ma, *mb, *mc, *md, *ext;
    int opa, opb, opc, opab, opabc; /* reduction: opab is opReduce */
    double alpha, beta, gamma;
    int dbl;
} ecase;

static const ecase ecases[] = {
    {3, "ab", "b", "ba", "ab", "a13b7", 1, 8, 24, 3, 6, 1.0, 2.0, -0.5, 0},
    {3, "abc", "ca", "bac", "cab", "a4b5c6", 25, 1, 12, 5, 7, 0.5, 1.5, 1.0, 1},
    {2, "ab", "", "ba", "ba", "a9b11", 1, 1, 27, 3, 5, 2.0, 0, 0.5, 0},
    {1, "abcd", "", "", "dbca", "a3b4c5d2", 1, 0, 0, 0, 0, -1.0, 0, 0, 1},
    {0, "abc", "", "", "ca", "a6b40c5", 1, 0, 0, 3, 0, 1.0, 0.5, 0, 0},
    {0, "abc", "", "", "b", "a6b4c5", 24, 0, 0, 6, 0, 2.0, 0.0, 0, 1},
    {0, "ab", "", "", "", "a7b8", 1, 0, 0, 7, 0, 1.0, 1.0, 0, 1},
};
#define NECASES (sizeof(ecases) / sizeof(ecases[0]))

typedef struct eprob {
    operand a, b, c, d;
} eprob;

static void eprob_make(const ecase *cs, int i, eprob *p, FILE *manifest) {
    char name[16], ea[64];
    snprintf(name, sizeof(name), "e%d", i);
    operand_make(&p->a, cs->ma, cs->ext, PADDED, cs->dbl, NAN);
    /* log and sqrt of negative values are NaN on both sides; keep them
     * positive for the unary operators that need it. */
    operand_make(&p->b, cs->mb, cs->ext, REVERSED, cs->dbl, NAN);
    /* A reduction's C has D's layout (cuTENSOR's rule). */
    operand_make(&p->c, cs->kind == 0 ? cs->md : cs->mc, cs->ext, cs->kind == 0 ? PADDED : PACKED,
                 cs->dbl, NAN);
    operand_make(&p->d, cs->md, cs->ext, PADDED, cs->dbl, SENTINEL);
    operand_write(&p->a, name, ".a");
    operand_write(&p->b, name, ".b");
    operand_write(&p->c, name, ".c");
    if (cs->kind == 0) {
        extents_text(&p->a, ea, sizeof(ea));
        fprintf(manifest, "reduce %s %s %s %d %d %.17g %.17g %s\n", name, cs->ma,
                cs->md[0] ? cs->md : "-", cs->opa, cs->opab, cs->alpha, cs->beta, ea);
    } else {
        extents_text(&p->d, ea, sizeof(ea));
        fprintf(manifest, "ew %s %s %s %s %s %d %d %d %d %d %.17g %.17g %.17g %s\n", name, cs->ma,
                cs->kind == 3 ? cs->mb : "-", cs->kind >= 2 ? cs->mc : "-", cs->md, cs->opa,
                cs->opb ? cs->opb : 1, cs->opc ? cs->opc : 1, cs->opab ? cs->opab : 3,
                cs->opabc ? cs->opabc : 3, cs->alpha, cs->beta, cs->gamma, ea);
    }
}

static void eprob_run(trntensorHandle_t h, const ecase *cs, eprob *p) {
    const int dbl = cs->dbl;
    operand_upload(&p->a, dbl);
    operand_upload(&p->b, dbl);
    operand_upload(&p->c, dbl);
    operand_upload(&p->d, dbl);
    const float f[3] = {(float)cs->alpha, (float)cs->beta, (float)cs->gamma};
    const double dv[3] = {cs->alpha, cs->beta, cs->gamma};
    const void *s[3];
    for (int k = 0; k < 3; k++)
        s[k] = dbl ? (const void *)&dv[k] : (const void *)&f[k];
    trntensorTensorDescriptor_t da = describe(h, &p->a, dbl), db = describe(h, &p->b, dbl),
                                dc = describe(h, &p->c, dbl), dd = describe(h, &p->d, dbl);
    trntensorComputeDescriptor_t cd = dbl ? TRNTENSOR_COMPUTE_DESC_64F : TRNTENSOR_COMPUTE_DESC_32F;
    trntensorOperationDescriptor_t op = NULL;
    trntensorStatus_t st;
    switch (cs->kind) {
    case 3:
        st = trntensorCreateElementwiseTrinary(
            h, &op, da, p->a.mode, (trntensorOperator_t)cs->opa, db, p->b.mode,
            (trntensorOperator_t)cs->opb, dc, p->c.mode, (trntensorOperator_t)cs->opc, dd,
            p->d.mode, (trntensorOperator_t)cs->opab, (trntensorOperator_t)cs->opabc, cd);
        break;
    case 2:
        st = trntensorCreateElementwiseBinary(h, &op, da, p->a.mode, (trntensorOperator_t)cs->opa,
                                              dc, p->c.mode, (trntensorOperator_t)cs->opc, dd,
                                              p->d.mode, (trntensorOperator_t)cs->opabc, cd);
        break;
    case 1:
        st = trntensorCreatePermutation(h, &op, da, p->a.mode, (trntensorOperator_t)cs->opa, dd,
                                        p->d.mode, cd);
        break;
    default:
        st = trntensorCreateReduction(h, &op, da, p->a.mode, (trntensorOperator_t)cs->opa, dc,
                                      p->c.mode, TRNTENSOR_OP_IDENTITY, dd, p->d.mode,
                                      (trntensorOperator_t)cs->opab, cd);
    }
    assert_int_equal(st, TRNTENSOR_STATUS_SUCCESS);
    trntensorPlan_t plan = NULL;
    assert_int_equal(trntensorCreatePlan(h, &plan, op, NULL, 0), TRNTENSOR_STATUS_SUCCESS);
    switch (cs->kind) {
    case 3:
        st = trntensorElementwiseTrinaryExecute(h, plan, s[0], p->a.dev, s[1], p->b.dev, s[2],
                                                p->c.dev, p->d.dev, NULL);
        break;
    case 2:
        st = trntensorElementwiseBinaryExecute(h, plan, s[0], p->a.dev, s[2], p->c.dev, p->d.dev,
                                               NULL);
        break;
    case 1: st = trntensorPermute(h, plan, s[0], p->a.dev, p->d.dev, NULL); break;
    default: st = trntensorReduce(h, plan, s[0], p->a.dev, s[1], p->c.dev, p->d.dev, NULL, 0, NULL);
    }
    if (st != TRNTENSOR_STATUS_SUCCESS)
        fail_msg("elementwise kind %d: %s", cs->kind, trnsciGetLastErrorMessage());
    assert_int_equal(trnsciDeviceSynchronize(), trnsciSuccess);
    operand_download(&p->d, dbl);
    trntensorDestroyPlan(plan);
    trntensorDestroyOperationDescriptor(op);
    trntensorDestroyTensorDescriptor(da);
    trntensorDestroyTensorDescriptor(db);
    trntensorDestroyTensorDescriptor(dc);
    trntensorDestroyTensorDescriptor(dd);
}

static void eprob_check(const ecase *cs, int i, const eprob *p) {
    char name[32];
    size_t bytes;
    snprintf(name, sizeof(name), "e%d.ref", i);
    double *ref = su_read_file(tmp_dir, name, &bytes);
    const size_t n = elements(&p->d);
    assert_int_equal(bytes, n * sizeof(double));
    /* Computed in double and rounded once to the data type; a reduction of
     * r terms adds gamma_r of the terms' magnitude (at most r |max term|,
     * here bounded by r * 8 for inputs in [-1, 1) through the operators
     * used). */
    const double u = cs->dbl ? 0x1p-53 : 0x1p-24;
    const double r = cs->kind == 0 ? (double)(elements(&p->a) / (n ? n : 1)) : 1.0;
    for (size_t e = 0; e < n; e++) {
        const double got = p->d.host[offset_of(&p->d, e)];
        const double tol = 4 * u * fabs(ref[e]) + gamma_n(r + 2, 0x1p-53) * 8 * r + 1e-300;
        if (!(fabs(got - ref[e]) <= tol))
            fail_msg("elementwise case %d element %zu: %.17g, numpy %.17g", i, e, got, ref[e]);
    }
    free(ref);
}

static void eprob_free(eprob *p) {
    operand_free(&p->a);
    operand_free(&p->b);
    operand_free(&p->c);
    operand_free(&p->d);
}

/* ---- permutations that convert between R_32F and R_64F -------------------------------- */

typedef struct vcase {
    const char *ma, *mb, *ext; /* B's modes are a permutation of A's */
    int layout_a, layout_b;
    int a64, b64; /* data types: 1 R_64F, 0 R_32F */
    int c64;      /* compute descriptor 64F (else 32F) */
    int opa;      /* 1 IDENTITY, 2 SQRT */
    double alpha;
    int exact;   /* bit for bit against numpy (and within the bound) */
    int special; /* A holds ties, subnormals, overflow, -0, infinities, a NaN */
} vcase;

static const vcase vcases[] = {
    /* the common use: FP64 -> FP32 in place order, 10^5 elements */
    {"abc", "abc", "a50b40c50", PACKED, PACKED, 1, 0, 1, 1, 1.0, 1, 1},
    {"abc", "abc", "a50b40c50", PACKED, PACKED, 1, 0, 0, 1, 1.0, 1, 1},
    {"abc", "abc", "a50b40c50", PADDED, PADDED, 1, 0, 1, 1, 1.0, 1, 1},
    {"abc", "abc", "a50b40c50", PACKED, PACKED, 0, 1, 1, 1, 1.0, 1, 1},
    {"abc", "abc", "a23b19c17", PADDED, REVERSED, 0, 1, 0, 1, 1.0, 1, 1},
    /* transpositions, scaled: one product, one rounding in the compute type */
    {"abcd", "dbca", "a6b7c8d9", PADDED, PACKED, 1, 0, 1, 1, 0.3, 1, 0},
    {"abcd", "dbca", "a6b7c8d9", PACKED, PADDED, 1, 0, 0, 1, -0.3, 1, 0},
    {"abcd", "cadb", "a6b7c8d9", REVERSED, PADDED, 0, 1, 0, 1, 1.5, 1, 0},
    /* with opA = SQRT */
    {"abcd", "dbca", "a6b7c8d9", PADDED, PADDED, 1, 0, 1, 2, -0.75, 1, 0},
    {"abcd", "dbca", "a6b7c8d9", PADDED, REVERSED, 1, 0, 0, 2, 2.5, 0, 0},
    {"abcd", "cadb", "a6b7c8d9", PACKED, PADDED, 0, 1, 0, 2, 0.6, 0, 0},
    {"abcd", "cadb", "a6b7c8d9", PADDED, PACKED, 0, 1, 1, 2, 0.6, 1, 0},
};
#define NVCASES (sizeof(vcases) / sizeof(vcases[0]))
#define VSEED 0x9e3779b97f4a7c15ull

/* The scalar as the client passes it: of the compute type. */
static double valpha(const vcase *cs) {
    return cs->c64 ? cs->alpha : (double)(float)cs->alpha;
}

typedef struct vprob {
    operand a, b;
} vprob;

/* Values that test the rounding to FP32 (A R_64F) or its absence (A
 * R_32F), placed at the first logical elements of A. */
static void put_specials(operand *a, int a64) {
    static const double d[] = {
        1.0 + 0x1p-24,           /* a tie: to even, 1 */
        1.0 + 3 * 0x1p-24,       /* a tie: to even, 1 + 2^-22 */
        -(1.0 + 0x1p-24),        /* a negative tie */
        1.0 + 0x1p-24 + 0x1p-50, /* just above a tie: up */
        0x1.8p-149,              /* an FP32 subnormal tie: to even, 2^-148 */
        0x1p-150,                /* a tie with zero: to even, 0 */
        3e-39,                   /* an FP32 subnormal */
        1e-50,                   /* under FP32's range: 0 */
        -1e-50,                  /* -0 */
        0x1.fffffefffffffp127,   /* below FLT_MAX's rounding boundary */
        0x1.ffffffp127,          /* the boundary: a tie, to infinity */
        3.5e38,                  /* overflows to infinity */
        -1e300,                  /* -infinity */
        -0.0,
        INFINITY,
        -INFINITY,
        NAN,
    };
    static const double f[] = {0x1p-149, 0x1p-130, -0x1.fffffep127, -0.0, INFINITY, NAN};
    const double *v = a64 ? d : f;
    const size_t n = a64 ? sizeof(d) / sizeof(d[0]) : sizeof(f) / sizeof(f[0]);
    for (size_t e = 0; e < n; e++)
        a->host[offset_of(a, e)] = v[e];
}

static void vprob_make(const vcase *cs, int i, vprob *p, FILE *manifest) {
    char name[16], ea[64];
    snprintf(name, sizeof(name), "v%d", i);
    operand_make(&p->a, cs->ma, cs->ext, cs->layout_a, cs->a64, NAN);
    if (cs->opa == 2) /* SQRT: keep the values positive */
        for (size_t k = 0; k < p->a.span; k++)
            p->a.host[k] = fabs(p->a.host[k]);
    if (cs->special)
        put_specials(&p->a, cs->a64);
    operand_make(&p->b, cs->mb, cs->ext, cs->layout_b, cs->b64, SENTINEL);
    operand_write(&p->a, name, ".a");
    extents_text(&p->a, ea, sizeof(ea));
    fprintf(manifest, "convert %s %d %d %d %d %.17g %s %s %s\n", name, cs->a64 ? 64 : 32,
            cs->b64 ? 64 : 32, cs->c64 ? 64 : 32, cs->opa, valpha(cs), cs->ma, cs->mb, ea);
}

static void vprob_run(trntensorHandle_t h, const vcase *cs, vprob *p) {
    operand_upload(&p->a, cs->a64);
    operand_upload(&p->b, cs->b64);
    trntensorTensorDescriptor_t da = describe(h, &p->a, cs->a64), db = describe(h, &p->b, cs->b64);
    trntensorOperationDescriptor_t op = NULL;
    assert_int_equal(trntensorCreatePermutation(
                         h, &op, da, p->a.mode, (trntensorOperator_t)cs->opa, db, p->b.mode,
                         cs->c64 ? TRNTENSOR_COMPUTE_DESC_64F : TRNTENSOR_COMPUTE_DESC_32F),
                     TRNTENSOR_STATUS_SUCCESS);
    trnsciDataType_t st = TRNSCI_C_64F;
    assert_int_equal(trntensorOperationDescriptorGetAttribute(
                         h, op, TRNTENSOR_OPERATION_DESCRIPTOR_SCALAR_TYPE, &st, sizeof(st)),
                     TRNTENSOR_STATUS_SUCCESS);
    assert_int_equal(st, cs->c64 ? TRNSCI_R_64F : TRNSCI_R_32F);
    trntensorPlan_t plan = NULL;
    assert_int_equal(trntensorCreatePlan(h, &plan, op, NULL, 0), TRNTENSOR_STATUS_SUCCESS);
    const float af = (float)cs->alpha;
    const double ad = cs->alpha;
    const trntensorStatus_t s = trntensorPermute(
        h, plan, cs->c64 ? (const void *)&ad : (const void *)&af, p->a.dev, p->b.dev, NULL);
    if (s != TRNTENSOR_STATUS_SUCCESS)
        fail_msg("trntensorPermute %s->%s: %s", cs->ma, cs->mb, trnsciGetLastErrorMessage());
    assert_int_equal(trnsciDeviceSynchronize(), trnsciSuccess);
    trntensorDestroyPlan(plan);
    trntensorDestroyOperationDescriptor(op);
    trntensorDestroyTensorDescriptor(da);
    trntensorDestroyTensorDescriptor(db);
}

static double raw_value(const unsigned char *p, int dbl) {
    if (dbl) {
        double v;
        memcpy(&v, p, 8);
        return v;
    }
    float v;
    memcpy(&v, p, 4);
    return v;
}

/* Checks B against numpy: NAME.ref (B's type, bit for bit, exact cases) and
 * NAME.real (float64 alpha opA(A) of the values as stored): |B - real| <=
 * (u_B + 2 u_c + 2 u_64) |real| (one rounding to B's type; at most two in
 * the compute type: opA and the product, where rounding an R_64F A to the
 * 32F compute type counts as the one opA = IDENTITY lacks and SQRT halves;
 * numpy's own two FP64 roundings) plus B's smallest subnormal. Padding
 * must be untouched. Returns the worst error / bound. */
static double vprob_check(const vcase *cs, int i, const vprob *p) {
    char name[32];
    size_t bytes, rbytes;
    const size_t es = cs->b64 ? 8 : 4, n = elements(&p->b);
    snprintf(name, sizeof(name), "v%d.ref", i);
    unsigned char *ref = su_read_file(tmp_dir, name, &bytes);
    snprintf(name, sizeof(name), "v%d.real", i);
    double *real = su_read_file(tmp_dir, name, &rbytes);
    assert_int_equal(bytes, n * es);
    assert_int_equal(rbytes, n * sizeof(double));
    unsigned char *got = su_dev_get(p->b.dev, p->b.span * es);
    char *touched = calloc(p->b.span, 1);
    const double ub = cs->b64 ? 0x1p-53 : 0x1p-24, uc = cs->c64 ? 0x1p-53 : 0x1p-24;
    const double eta = cs->b64 ? 0x1p-1074 : 0x1p-149;
    double worst = 0.0;
    for (size_t e = 0; e < n; e++) {
        const size_t off = offset_of(&p->b, e);
        touched[off] = 1;
        const double g = raw_value(got + off * es, cs->b64);
        if (cs->exact && memcmp(got + off * es, ref + e * es, es) != 0)
            fail_msg("convert case %d (%s %s->%s) element %zu: %.17g (%a), numpy %.17g (%a)", i,
                     cs->a64 ? "R_64F" : "R_32F", cs->ma, cs->mb, e, g, g,
                     raw_value(ref + e * es, cs->b64), raw_value(ref + e * es, cs->b64));
        if (cs->special)
            continue; /* infinities and NaN: the bits above are the check */
        const double b = (ub + 2 * uc + 2 * 0x1p-53) * fabs(real[e]) + eta;
        const double err = fabs(g - real[e]);
        if (!(err <= b))
            fail_msg("convert case %d element %zu: %.17g, numpy %.17g, error %.3g > bound %.3g", i,
                     e, g, real[e], err, b);
        if (err / b > worst)
            worst = err / b;
    }
    for (size_t o = 0; o < p->b.span; o++)
        if (!touched[o] && raw_value(got + o * es, cs->b64) != SENTINEL)
            fail_msg("convert case %d: padding element %zu of B changed", i, o);
    free(touched);
    free(got);
    free(ref);
    free(real);
    return worst;
}

static void vprob_free(vprob *p) {
    operand_free(&p->a);
    operand_free(&p->b);
}

/* ---- the tests --------------------------------------------------------------------------- */

static int refs_ready;

/* Writes every case's operands and runs tensor_ref.py once. */
static void make_refs(void) {
    if (refs_ready)
        return;
    char path[320];
    snprintf(path, sizeof(path), "%s/manifest.txt", tmp_dir);
    FILE *m = fopen(path, "w");
    assert_non_null(m);
    rng = 88172645463325252ull;
    for (size_t i = 0; i < NCCASES; i++) {
        cprob p;
        cprob_make(&ccases[i], (int)i, &p, m);
        cprob_free(&p);
    }
    for (size_t i = 0; i < NECASES; i++) {
        eprob p;
        eprob_make(&ecases[i], (int)i, &p, m);
        eprob_free(&p);
    }
    rng = VSEED;
    for (size_t i = 0; i < NVCASES; i++) {
        vprob p;
        vprob_make(&vcases[i], (int)i, &p, m);
        vprob_free(&p);
    }
    fprintf(m, "path p0 ab,bc,cd,de->ae 2,50 50,3 3,60 60,4\n");
    fprintf(m, "path p1 ij,jk,kl->il 40,2 2,40 40,5\n");
    fclose(m);
    su_run_ref(PYTHON3, TENSOR_REF_PY, "all", tmp_dir);
    refs_ready = 1;
}

static void test_contractions(void **state) {
    make_refs();
    assert_int_equal(trnsciInit(su_addr(state)), trnsciSuccess);
    trntensorHandle_t h = NULL;
    assert_int_equal(trntensorCreate(&h), TRNTENSOR_STATUS_SUCCESS);
    rng = 88172645463325252ull; /* the same operands make_refs wrote */
    double worst[6] = {0};
    for (size_t i = 0; i < NCCASES; i++) {
        cprob p;
        FILE *devnull = fopen("/dev/null", "w");
        cprob_make(&ccases[i], (int)i, &p, devnull);
        fclose(devnull);
        cprob_run(h, &ccases[i], &p);
        const double w = cprob_check(&ccases[i], (int)i, &p);
        if (w > worst[ccases[i].compute])
            worst[ccases[i].compute] = w;
        cprob_free(&p);
    }
    print_message("worst error / bound: 32F %.3g, 64F %.3g, FAST_16BF %.3g, FAST_TF32 %.3g, "
                  "BF16X3 %.3g, 64F_EMULATED %.3g\n",
                  worst[0], worst[1], worst[2], worst[3], worst[4], worst[5]);
    for (size_t i = 0; i < NECASES; i++) {
        eprob p;
        FILE *devnull = fopen("/dev/null", "w");
        eprob_make(&ecases[i], (int)i, &p, devnull);
        fclose(devnull);
        eprob_run(h, &ecases[i], &p);
        eprob_check(&ecases[i], (int)i, &p);
        eprob_free(&p);
    }
    assert_int_equal(trntensorDestroy(h), TRNTENSOR_STATUS_SUCCESS);
}

static void test_convert(void **state) {
    make_refs();
    assert_int_equal(trnsciInit(su_addr(state)), trnsciSuccess);
    trntensorHandle_t h = NULL;
    assert_int_equal(trntensorCreate(&h), TRNTENSOR_STATUS_SUCCESS);
    rng = VSEED; /* the same operands make_refs wrote */
    double worst = 0.0;
    for (size_t i = 0; i < NVCASES; i++) {
        vprob p;
        FILE *devnull = fopen("/dev/null", "w");
        vprob_make(&vcases[i], (int)i, &p, devnull);
        fclose(devnull);
        vprob_run(h, &vcases[i], &p);
        const double w = vprob_check(&vcases[i], (int)i, &p);
        if (w > worst)
            worst = w;
        vprob_free(&p);
    }
    print_message("converting permutations: worst error / bound %.3g\n", worst);
    assert_int_equal(trntensorDestroy(h), TRNTENSOR_STATUS_SUCCESS);
}

/* A converting permutation large enough for two shards: B's raw bytes. */
static void *run_convert_big(const char *addr, const vcase *cs, size_t *bytes) {
    trnsciDeviceReset();
    assert_int_equal(trnsciInit(addr), trnsciSuccess);
    trntensorHandle_t h = NULL;
    assert_int_equal(trntensorCreate(&h), TRNTENSOR_STATUS_SUCCESS);
    rng = 4242;
    vprob p;
    FILE *devnull = fopen("/dev/null", "w");
    vprob_make(cs, 99, &p, devnull);
    fclose(devnull);
    vprob_run(h, cs, &p);
    *bytes = p.b.span * (cs->b64 ? 8 : 4);
    void *out = su_dev_get(p.b.dev, *bytes);
    vprob_free(&p);
    trntensorDestroy(h);
    return out;
}

static void test_convert_one_core_vs_two_cores(void **state) {
    (void)state;
    static const vcase big[] = {
        {"abcd", "abcd", "a60b50c10d21", PACKED, PACKED, 1, 0, 1, 1, 1.0, 0, 1},
        {"abcd", "dbca", "a60b50c10d21", PADDED, PADDED, 1, 0, 0, 2, 0.7, 0, 0},
        {"abcd", "cadb", "a60b50c10d21", PACKED, PADDED, 0, 1, 0, 1, 1.5, 0, 0},
    };
    for (size_t k = 0; k < sizeof(big) / sizeof(big[0]); k++) {
        size_t nx, ny;
        void *x = run_convert_big(one_core.unix_addr, &big[k], &nx);
        const uint64_t before = su_shards_run(two_cores.unix_addr);
        void *y = run_convert_big(two_cores.unix_addr, &big[k], &ny);
        const uint64_t shards = su_shards_run(two_cores.unix_addr) - before;
        assert_int_equal(nx, ny);
        if (shards < 2)
            fail_msg("conversion %zu ran as one shard", k);
        if (memcmp(x, y, nx) != 0)
            fail_msg("conversion %zu: 1-core and 2-core results differ", k);
        free(x);
        free(y);
    }
}

/* Expects status st and a message naming every needle. */
static void expect_refusal(trntensorStatus_t got, trntensorStatus_t st, const char *n1,
                           const char *n2) {
    if (got != st)
        fail_msg("status %d (%s), expected %d: %s", (int)got, trntensorGetErrorString(got), (int)st,
                 trnsciGetLastErrorMessage());
    su_expect_message(n1);
    if (n2)
        su_expect_message(n2);
}

static void test_convert_errors(void **state) {
    assert_int_equal(trnsciInit(su_addr(state)), trnsciSuccess);
    trntensorHandle_t h = NULL;
    assert_int_equal(trntensorCreate(&h), TRNTENSOR_STATUS_SUCCESS);
    const int64_t e34[2] = {3, 4}, e4[1] = {4}, e45[2] = {4, 5}, e35[2] = {3, 5};
    const int32_t ab[2] = {'a', 'b'}, ba[2] = {'b', 'a'}, b[1] = {'b'}, ik[2] = {'i', 'k'};
    const int32_t kj[2] = {'k', 'j'}, ij[2] = {'i', 'j'};
    trntensorTensorDescriptor_t d64, d32, c32, dz = NULL, k64, j32, o32;
    /* half complex data: refused at the descriptor, the type named */
    expect_refusal(trntensorCreateTensorDescriptor(h, &dz, 2, e34, NULL, TRNSCI_C_16F, 0),
                   TRNTENSOR_STATUS_NOT_SUPPORTED, "TRNSCI_C_16F", NULL);
    assert_int_equal(trntensorCreateTensorDescriptor(h, &d64, 2, e34, NULL, TRNSCI_R_64F, 0),
                     TRNTENSOR_STATUS_SUCCESS);
    assert_int_equal(trntensorCreateTensorDescriptor(h, &d32, 2, e34, NULL, TRNSCI_R_32F, 0),
                     TRNTENSOR_STATUS_SUCCESS);
    assert_int_equal(trntensorCreateTensorDescriptor(h, &c32, 1, e4, NULL, TRNSCI_R_32F, 0),
                     TRNTENSOR_STATUS_SUCCESS);
    assert_int_equal(trntensorCreateTensorDescriptor(h, &k64, 2, e45, NULL, TRNSCI_R_64F, 0),
                     TRNTENSOR_STATUS_SUCCESS);
    assert_int_equal(trntensorCreateTensorDescriptor(h, &j32, 2, e35, NULL, TRNSCI_R_32F, 0),
                     TRNTENSOR_STATUS_SUCCESS);
    assert_int_equal(trntensorCreateTensorDescriptor(h, &o32, 2, e34, NULL, TRNSCI_R_32F, 0),
                     TRNTENSOR_STATUS_SUCCESS);
    trntensorOperationDescriptor_t op = NULL;
    /* mixed types outside a permutation */
    expect_refusal(trntensorCreateElementwiseBinary(h, &op, d64, ab, TRNTENSOR_OP_IDENTITY, c32, b,
                                                    TRNTENSOR_OP_IDENTITY, d32, ab,
                                                    TRNTENSOR_OP_ADD, TRNTENSOR_COMPUTE_DESC_32F),
                   TRNTENSOR_STATUS_NOT_SUPPORTED, "TRNSCI_R_32F and descA TRNSCI_R_64F",
                   "trntensorCreatePermutation");
    expect_refusal(trntensorCreateElementwiseTrinary(
                       h, &op, d32, ab, TRNTENSOR_OP_IDENTITY, d64, ab, TRNTENSOR_OP_IDENTITY, c32,
                       b, TRNTENSOR_OP_IDENTITY, d32, ab, TRNTENSOR_OP_ADD, TRNTENSOR_OP_ADD,
                       TRNTENSOR_COMPUTE_DESC_32F),
                   TRNTENSOR_STATUS_NOT_SUPPORTED, "descB has data type TRNSCI_R_64F",
                   "TRNSCI_R_32F");
    expect_refusal(trntensorCreateReduction(h, &op, d64, ab, TRNTENSOR_OP_IDENTITY, c32, b,
                                            TRNTENSOR_OP_IDENTITY, c32, b, TRNTENSOR_OP_ADD,
                                            TRNTENSOR_COMPUTE_DESC_64F),
                   TRNTENSOR_STATUS_NOT_SUPPORTED, "TRNSCI_R_32F", "TRNSCI_R_64F");
    expect_refusal(trntensorCreateContraction(h, &op, o32, ik, TRNTENSOR_OP_IDENTITY, k64, kj,
                                              TRNTENSOR_OP_IDENTITY, j32, ij, TRNTENSOR_OP_IDENTITY,
                                              j32, ij, TRNTENSOR_COMPUTE_DESC_32F),
                   TRNTENSOR_STATUS_NOT_SUPPORTED, "TRNSCI_R_64F", "TRNSCI_R_32F");
    /* a converting permutation computes in 32F or 64F */
    expect_refusal(trntensorCreatePermutation(h, &op, d64, ab, TRNTENSOR_OP_IDENTITY, d32, ba,
                                              TRNTENSOR_COMPUTE_DESC_32F_FAST_16BF),
                   TRNTENSOR_STATUS_NOT_SUPPORTED, "typeA TRNSCI_R_64F and typeB TRNSCI_R_32F",
                   "32F_FAST_16BF");
    expect_refusal(trntensorCreatePermutation(h, &op, d32, ab, TRNTENSOR_OP_IDENTITY, d64, ba,
                                              TRNTENSOR_COMPUTE_DESC_64F_EMULATED),
                   TRNTENSOR_STATUS_NOT_SUPPORTED, "typeA TRNSCI_R_32F and typeB TRNSCI_R_64F",
                   "64F_EMULATED");
    /* the operand sizes are each type's: a float B one element short of
     * 3 x 4 is refused by the daemon (B is the wire op's D), an exact one
     * runs */
    double *a = NULL;
    float *bshort = NULL, *bok = NULL;
    assert_int_equal(trnsciMalloc((void **)&a, 12 * 8), trnsciSuccess);
    assert_int_equal(trnsciMalloc((void **)&bshort, 11 * 4), trnsciSuccess);
    assert_int_equal(trnsciMalloc((void **)&bok, 12 * 4), trnsciSuccess);
    assert_int_equal(trntensorCreatePermutation(h, &op, d64, ab, TRNTENSOR_OP_IDENTITY, d32, ab,
                                                TRNTENSOR_COMPUTE_DESC_64F),
                     TRNTENSOR_STATUS_SUCCESS);
    trntensorPlan_t plan = NULL;
    assert_int_equal(trntensorCreatePlan(h, &plan, op, NULL, 0), TRNTENSOR_STATUS_SUCCESS);
    const double one = 1.0;
    expect_refusal(trntensorPermute(h, plan, &one, a, bshort, NULL), TRNTENSOR_STATUS_INVALID_VALUE,
                   "D: needs 48 bytes", NULL);
    assert_int_equal(trntensorPermute(h, plan, &one, a, bok, NULL), TRNTENSOR_STATUS_SUCCESS);
    assert_int_equal(trnsciDeviceSynchronize(), trnsciSuccess);
    trntensorDestroyPlan(plan);
    trntensorDestroyOperationDescriptor(op);
    trnsciFree(a);
    trnsciFree(bshort);
    trnsciFree(bok);
    trntensorDestroyTensorDescriptor(d64);
    trntensorDestroyTensorDescriptor(d32);
    trntensorDestroyTensorDescriptor(c32);
    trntensorDestroyTensorDescriptor(k64);
    trntensorDestroyTensorDescriptor(j32);
    trntensorDestroyTensorDescriptor(o32);
    trntensorDestroy(h);
}

/* A zero scalar means its operand is not read (cuTENSOR's rule): A full of
 * NaN with alpha = 0 gives zeros from a permutation and gamma C from a
 * binary op; C full of NaN with gamma = 0 gives alpha A. */
static void test_zero_scalar_skips_operand(void **state) {
    assert_int_equal(trnsciInit(su_addr(state)), trnsciSuccess);
    trntensorHandle_t h = NULL;
    assert_int_equal(trntensorCreate(&h), TRNTENSOR_STATUS_SUCCESS);
    enum { N = 12 };
    const int64_t e34[2] = {3, 4};
    const int32_t ab[2] = {'a', 'b'};
    trntensorTensorDescriptor_t d;
    assert_int_equal(trntensorCreateTensorDescriptor(h, &d, 2, e34, NULL, TRNSCI_R_64F, 0),
                     TRNTENSOR_STATUS_SUCCESS);
    double *nan_t, *val_t, *out;
    assert_int_equal(trnsciMalloc((void **)&nan_t, N * 8), trnsciSuccess);
    assert_int_equal(trnsciMalloc((void **)&val_t, N * 8), trnsciSuccess);
    assert_int_equal(trnsciMalloc((void **)&out, N * 8), trnsciSuccess);
    double host_nan[N], host_val[N], got[N];
    for (int i = 0; i < N; i++) {
        host_nan[i] = NAN;
        host_val[i] = i - 5.5;
    }
    assert_int_equal(trnsciMemcpy(nan_t, host_nan, sizeof(host_nan), trnsciMemcpyHostToDevice),
                     trnsciSuccess);
    assert_int_equal(trnsciMemcpy(val_t, host_val, sizeof(host_val), trnsciMemcpyHostToDevice),
                     trnsciSuccess);
    const double zero = 0.0, one = 1.0, two = 2.0;

    trntensorOperationDescriptor_t op;
    trntensorPlan_t plan;
    assert_int_equal(trntensorCreatePermutation(h, &op, d, ab, TRNTENSOR_OP_SQRT, d, ab,
                                                TRNTENSOR_COMPUTE_DESC_64F),
                     TRNTENSOR_STATUS_SUCCESS);
    assert_int_equal(trntensorCreatePlan(h, &plan, op, NULL, 0), TRNTENSOR_STATUS_SUCCESS);
    assert_int_equal(trntensorPermute(h, plan, &zero, nan_t, out, NULL), TRNTENSOR_STATUS_SUCCESS);
    assert_int_equal(trnsciMemcpy(got, out, sizeof(got), trnsciMemcpyDeviceToHost), trnsciSuccess);
    for (int i = 0; i < N; i++)
        assert_true(got[i] == 0.0);
    trntensorDestroyPlan(plan);
    trntensorDestroyOperationDescriptor(op);

    /* D = alpha A + gamma C. */
    assert_int_equal(trntensorCreateElementwiseBinary(h, &op, d, ab, TRNTENSOR_OP_IDENTITY, d, ab,
                                                      TRNTENSOR_OP_IDENTITY, d, ab,
                                                      TRNTENSOR_OP_ADD, TRNTENSOR_COMPUTE_DESC_64F),
                     TRNTENSOR_STATUS_SUCCESS);
    assert_int_equal(trntensorCreatePlan(h, &plan, op, NULL, 0), TRNTENSOR_STATUS_SUCCESS);
    assert_int_equal(
        trntensorElementwiseBinaryExecute(h, plan, &zero, nan_t, &two, val_t, out, NULL),
        TRNTENSOR_STATUS_SUCCESS);
    assert_int_equal(trnsciMemcpy(got, out, sizeof(got), trnsciMemcpyDeviceToHost), trnsciSuccess);
    for (int i = 0; i < N; i++)
        assert_true(got[i] == 2.0 * host_val[i]);
    assert_int_equal(
        trntensorElementwiseBinaryExecute(h, plan, &one, val_t, &zero, nan_t, out, NULL),
        TRNTENSOR_STATUS_SUCCESS);
    assert_int_equal(trnsciMemcpy(got, out, sizeof(got), trnsciMemcpyDeviceToHost), trnsciSuccess);
    for (int i = 0; i < N; i++)
        assert_true(got[i] == host_val[i]);
    trntensorDestroyPlan(plan);
    trntensorDestroyOperationDescriptor(op);
    trnsciFree(nan_t);
    trnsciFree(val_t);
    trnsciFree(out);
    trntensorDestroyTensorDescriptor(d);
    trntensorDestroy(h);
}

static void test_einsum_path(void **state) {
    (void)state;
    make_refs();
    static const struct {
        const char *subs;
        int n;
        int64_t ext[4][2];
    } paths[] = {
        {"ab,bc,cd,de->ae", 4, {{2, 50}, {50, 3}, {3, 60}, {60, 4}}},
        {"ij,jk,kl->il", 3, {{40, 2}, {2, 40}, {40, 5}}},
    };
    trntensorHandle_t h = NULL;
    assert_int_equal(trnsciInit(one_core.unix_addr), trnsciSuccess);
    assert_int_equal(trntensorCreate(&h), TRNTENSOR_STATUS_SUCCESS);
    for (int p = 0; p < 2; p++) {
        trntensorTensorDescriptor_t d[4];
        for (int k = 0; k < paths[p].n; k++)
            assert_int_equal(trntensorCreateTensorDescriptor(h, &d[k], 2, paths[p].ext[k], NULL,
                                                             TRNSCI_R_32F, 0),
                             TRNTENSOR_STATUS_SUCCESS);
        int32_t opt[6], greedy[6];
        double fo = 0, fg = 0;
        assert_int_equal(trntensorEinsumPath(paths[p].subs, paths[p].n, d,
                                             TRNTENSOR_EINSUM_PATH_OPTIMAL, opt, &fo),
                         TRNTENSOR_STATUS_SUCCESS);
        assert_int_equal(trntensorEinsumPath(paths[p].subs, paths[p].n, d,
                                             TRNTENSOR_EINSUM_PATH_GREEDY, greedy, &fg),
                         TRNTENSOR_STATUS_SUCCESS);
        assert_true(fo > 0 && fo <= fg);
        char name[16];
        size_t bytes;
        snprintf(name, sizeof(name), "p%d.path", p);
        int32_t *ref = su_read_file(tmp_dir, name, &bytes);
        assert_int_equal(bytes, (size_t)(paths[p].n - 1) * 2 * sizeof(int32_t));
        for (int s = 0; s < 2 * (paths[p].n - 1); s++)
            if (opt[s] != ref[s])
                fail_msg("%s: optimal path entry %d is %d, numpy's %d", paths[p].subs, s, opt[s],
                         ref[s]);
        free(ref);
        for (int k = 0; k < paths[p].n; k++)
            trntensorDestroyTensorDescriptor(d[k]);
    }
    trntensorDestroy(h);
}

/* The sharded contraction: C = D with both layouts, D reversed. */
static void run_big(const char *addr, double *out, size_t *n_out, int layout) {
    trnsciDeviceReset();
    assert_int_equal(trnsciInit(addr), trnsciSuccess);
    trntensorHandle_t h = NULL;
    assert_int_equal(trntensorCreate(&h), TRNTENSOR_STATUS_SUCCESS);
    rng = 12345;
    operand a, b, d;
    const char *ext = "i256k256j300";
    operand_make(&a, "ik", ext, layout, 0, NAN);
    operand_make(&b, "kj", ext, PACKED, 0, NAN);
    operand_make(&d, "ij", ext, layout == PACKED ? REVERSED : PADDED, 0, NAN);
    operand_upload(&a, 0);
    operand_upload(&b, 0);
    operand_upload(&d, 0);
    trntensorTensorDescriptor_t da = describe(h, &a, 0), db = describe(h, &b, 0),
                                dd = describe(h, &d, 0);
    const float alpha = 1.0f, beta = 0.5f;
    assert_int_equal(trntensorEinsum(h, "ik,kj->ij", &alpha, da, a.dev, db, b.dev, &beta, dd, d.dev,
                                     TRNTENSOR_COMPUTE_DESC_32F),
                     TRNTENSOR_STATUS_SUCCESS);
    assert_int_equal(trnsciDeviceSynchronize(), trnsciSuccess);
    operand_download(&d, 0);
    memcpy(out, d.host, d.span * sizeof(double));
    *n_out = d.span;
    trntensorDestroyTensorDescriptor(da);
    trntensorDestroyTensorDescriptor(db);
    trntensorDestroyTensorDescriptor(dd);
    operand_free(&a);
    operand_free(&b);
    operand_free(&d);
    trntensorDestroy(h);
}

static void test_one_core_vs_two_cores(void **state) {
    (void)state;
    for (int layout = 0; layout < 2; layout++) {
        double *x = malloc(90000 * sizeof(double)), *y = malloc(90000 * sizeof(double));
        size_t nx, ny;
        run_big(one_core.unix_addr, x, &nx, layout);
        const uint64_t before = su_shards_run(two_cores.unix_addr);
        run_big(two_cores.unix_addr, y, &ny, layout);
        const uint64_t shards = su_shards_run(two_cores.unix_addr) - before;
        assert_int_equal(nx, ny);
        if (shards < 2)
            fail_msg("the contraction ran as one shard (%llu shards in all)",
                     (unsigned long long)shards);
        if (memcmp(x, y, nx * sizeof(double)) != 0)
            fail_msg("layout %d: 1-core and 2-core results differ", layout);
        free(x);
        free(y);
    }
}

/* A child process makes the same contraction plan. */
static int child_plan(const char *addr) {
    if (trnsciInit(addr) != trnsciSuccess)
        return 2;
    trntensorHandle_t h;
    if (trntensorCreate(&h) != TRNTENSOR_STATUS_SUCCESS)
        return 3;
    const int64_t ea[2] = {31, 17}, eb[2] = {17, 29}, ed[2] = {31, 29};
    const int32_t ma[2] = {'i', 'k'}, mb[2] = {'k', 'j'}, md[2] = {'i', 'j'};
    trntensorTensorDescriptor_t da, db, dd;
    trntensorCreateTensorDescriptor(h, &da, 2, ea, NULL, TRNSCI_R_64F, 0);
    trntensorCreateTensorDescriptor(h, &db, 2, eb, NULL, TRNSCI_R_64F, 0);
    trntensorCreateTensorDescriptor(h, &dd, 2, ed, NULL, TRNSCI_R_64F, 0);
    trntensorOperationDescriptor_t op;
    trntensorPlan_t plan;
    if (trntensorCreateContraction(h, &op, da, ma, TRNTENSOR_OP_IDENTITY, db, mb,
                                   TRNTENSOR_OP_IDENTITY, dd, md, TRNTENSOR_OP_IDENTITY, dd, md,
                                   TRNTENSOR_COMPUTE_DESC_64F) != TRNTENSOR_STATUS_SUCCESS ||
        trntensorCreatePlan(h, &plan, op, NULL, 0) != TRNTENSOR_STATUS_SUCCESS)
        return 4;
    trntensorDestroyPlan(plan);
    trntensorDestroyOperationDescriptor(op);
    trntensorDestroyTensorDescriptor(da);
    trntensorDestroyTensorDescriptor(db);
    trntensorDestroyTensorDescriptor(dd);
    trntensorDestroy(h);
    return 0;
}

static void test_plan_shared_across_processes(void **state) {
    (void)state;
    trnsciPlanCacheStats s0, s1, s2;
    int count = 0;
    assert_int_equal(trnsciDaemonGetPlans(two_cores.unix_addr, NULL, 0, &count, &s0),
                     trnsciSuccess);
    assert_int_equal(th_wait_child(th_spawn_role("plan", two_cores.unix_addr, -1)), 0);
    assert_int_equal(trnsciDaemonGetPlans(two_cores.unix_addr, NULL, 0, &count, &s1),
                     trnsciSuccess);
    assert_int_equal(th_wait_child(th_spawn_role("plan", two_cores.tcp_addr, -1)), 0);
    assert_int_equal(trnsciDaemonGetPlans(two_cores.unix_addr, NULL, 0, &count, &s2),
                     trnsciSuccess);
    /* The first process may find the plan made already (or make it); the
     * second finds it. */
    assert_true(s1.hits + s1.misses == s0.hits + s0.misses + 1);
    assert_int_equal(s2.hits, s1.hits + 1);
    assert_int_equal(s2.misses, s1.misses);
    trnsciPlanInfo info[64];
    assert_int_equal(trnsciDaemonGetPlans(two_cores.unix_addr, info, 64, &count, NULL),
                     trnsciSuccess);
    int found = 0;
    for (int i = 0; i < count && i < 64; i++)
        found |= strncmp(info[i].key, "tensor contract R_64F 64F A=a31b17/p", 36) == 0;
    assert_true(found);
}

/* Creates a contraction of the given modes and extents (packed) and tries
 * its plan: returns the status. */
static char plan_message[256];

static trntensorStatus_t try_plan(trntensorHandle_t h, int na, const int32_t *ma, const int64_t *ea,
                                  int nb, const int32_t *mb, const int64_t *eb, int nd,
                                  const int32_t *md, const int64_t *ed, const int64_t *sd) {
    trntensorTensorDescriptor_t da, db, dd;
    assert_int_equal(
        trntensorCreateTensorDescriptor(h, &da, (uint32_t)na, ea, NULL, TRNSCI_R_32F, 0),
        TRNTENSOR_STATUS_SUCCESS);
    assert_int_equal(
        trntensorCreateTensorDescriptor(h, &db, (uint32_t)nb, eb, NULL, TRNSCI_R_32F, 0),
        TRNTENSOR_STATUS_SUCCESS);
    assert_int_equal(trntensorCreateTensorDescriptor(h, &dd, (uint32_t)nd, ed, sd, TRNSCI_R_32F, 0),
                     TRNTENSOR_STATUS_SUCCESS);
    trntensorOperationDescriptor_t op;
    trntensorStatus_t st = trntensorCreateContraction(
        h, &op, da, ma, TRNTENSOR_OP_IDENTITY, db, mb, TRNTENSOR_OP_IDENTITY, dd, md,
        TRNTENSOR_OP_IDENTITY, dd, md, TRNTENSOR_COMPUTE_DESC_32F);
    if (st == TRNTENSOR_STATUS_SUCCESS) {
        trntensorPlan_t plan = NULL;
        st = trntensorCreatePlan(h, &plan, op, NULL, 0);
        snprintf(plan_message, sizeof(plan_message), "%s", trnsciGetLastErrorMessage());
        if (st == TRNTENSOR_STATUS_SUCCESS)
            trntensorDestroyPlan(plan);
        trntensorDestroyOperationDescriptor(op);
    } else {
        snprintf(plan_message, sizeof(plan_message), "%s", trnsciGetLastErrorMessage());
    }
    trntensorDestroyTensorDescriptor(da);
    trntensorDestroyTensorDescriptor(db);
    trntensorDestroyTensorDescriptor(dd);
    return st;
}

static void expect_plan_message(const char *needle) {
    if (!strstr(plan_message, needle))
        fail_msg("message \"%s\" does not mention \"%s\"", plan_message, needle);
}

static void test_errors(void **state) {
    assert_int_equal(trnsciInit(su_addr(state)), trnsciSuccess);
    trntensorHandle_t h = NULL;
    assert_int_equal(trntensorCreate(&h), TRNTENSOR_STATUS_SUCCESS);
    const int32_t ik[2] = {'i', 'k'}, kj[2] = {'k', 'j'}, ij[2] = {'i', 'j'}, ii[2] = {'i', 'i'};
    const int32_t iz[2] = {'i', 'z'}, ix[2] = {'i', 'x'};
    const int64_t e34[2] = {3, 4}, e45[2] = {4, 5}, e55[2] = {5, 5}, e35[2] = {3, 5};
    const int64_t e33[2] = {3, 3};
    /* extent mismatch of k */
    assert_int_equal(try_plan(h, 2, ik, e34, 2, kj, e55, 2, ij, e35, NULL),
                     TRNTENSOR_STATUS_INVALID_VALUE);
    expect_plan_message("extent");
    /* repeated output mode */
    assert_int_equal(try_plan(h, 2, ik, e34, 2, kj, e45, 2, ii, e33, NULL),
                     TRNTENSOR_STATUS_INVALID_VALUE);
    expect_plan_message("repeats mode");
    /* a mode of D in neither input */
    assert_int_equal(try_plan(h, 2, ik, e34, 2, kj, e45, 2, iz, e35, NULL),
                     TRNTENSOR_STATUS_INVALID_VALUE);
    expect_plan_message("neither");
    /* a mode of A only (summed in A): not supported in a contraction */
    const int32_t ixk[3] = {'i', 'x', 'k'};
    const int64_t e324[3] = {3, 2, 4};
    assert_int_equal(try_plan(h, 3, ixk, e324, 2, kj, e45, 2, ij, e35, NULL),
                     TRNTENSOR_STATUS_NOT_SUPPORTED);
    expect_plan_message("trntensorReduce");
    (void)ix;
    /* overlapping output strides */
    const int64_t bad[2] = {1, 2};
    assert_int_equal(try_plan(h, 2, ik, e34, 2, kj, e45, 2, ij, e35, bad),
                     TRNTENSOR_STATUS_INVALID_VALUE);
    expect_plan_message("overlap");
    /* too many modes */
    int64_t many[17];
    for (int i = 0; i < 17; i++)
        many[i] = 1;
    trntensorTensorDescriptor_t d = NULL;
    assert_int_equal(trntensorCreateTensorDescriptor(h, &d, 17, many, NULL, TRNSCI_R_32F, 0),
                     TRNTENSOR_STATUS_NOT_SUPPORTED);
    su_expect_message("numModes");
    /* a data type trntensor lacks */
    assert_int_equal(trntensorCreateTensorDescriptor(h, &d, 2, e34, NULL, TRNSCI_C_16F, 0),
                     TRNTENSOR_STATUS_NOT_SUPPORTED);
    /* negative extent: refused by the daemon when planning */
    const int64_t neg[2] = {3, -4};
    assert_int_equal(try_plan(h, 2, ik, neg, 2, kj, e45, 2, ij, e35, NULL),
                     TRNTENSOR_STATUS_INVALID_VALUE);
    expect_plan_message("extent");
    /* an operand past its allocation */
    float *a = NULL, *b = NULL, *c = NULL;
    assert_int_equal(trnsciMalloc((void **)&a, 12 * 4), trnsciSuccess);
    assert_int_equal(trnsciMalloc((void **)&b, 20 * 4), trnsciSuccess);
    assert_int_equal(trnsciMalloc((void **)&c, 14 * 4), trnsciSuccess); /* needs 15 */
    trntensorTensorDescriptor_t da, db, dc;
    trntensorCreateTensorDescriptor(h, &da, 2, e34, NULL, TRNSCI_R_32F, 0);
    trntensorCreateTensorDescriptor(h, &db, 2, e45, NULL, TRNSCI_R_32F, 0);
    trntensorCreateTensorDescriptor(h, &dc, 2, e35, NULL, TRNSCI_R_32F, 0);
    const float one = 1.0f, zero = 0.0f;
    assert_int_equal(trntensorEinsum(h, "ik,kj->ij", &one, da, a, db, b, &zero, dc, c,
                                     TRNTENSOR_COMPUTE_DESC_32F),
                     TRNTENSOR_STATUS_INVALID_VALUE);
    su_expect_message("D");
    /* bad einsum strings */
    assert_int_equal(
        trntensorEinsum(h, "ik,kj", &one, da, a, db, b, &zero, dc, c, TRNTENSOR_COMPUTE_DESC_32F),
        TRNTENSOR_STATUS_INVALID_VALUE);
    assert_int_equal(trntensorEinsum(h, "ikq,kj->ij", &one, da, a, db, b, &zero, dc, c,
                                     TRNTENSOR_COMPUTE_DESC_32F),
                     TRNTENSOR_STATUS_INVALID_VALUE);
    su_expect_message("subscripts");
    /* element-wise: a mode of A that D lacks */
    trntensorOperationDescriptor_t op;
    trntensorPlan_t plan;
    assert_int_equal(trntensorCreatePermutation(h, &op, da, ik, TRNTENSOR_OP_IDENTITY, dc, ij,
                                                TRNTENSOR_COMPUTE_DESC_32F),
                     TRNTENSOR_STATUS_SUCCESS);
    assert_int_equal(trntensorCreatePlan(h, &plan, op, NULL, 0), TRNTENSOR_STATUS_SUCCESS);
    assert_int_equal(trntensorPermute(h, plan, &one, a, c, NULL), TRNTENSOR_STATUS_INVALID_VALUE);
    su_expect_message("not a mode of D");
    trntensorDestroyPlan(plan);
    trntensorDestroyOperationDescriptor(op);
    /* the daemon is still up: a good contraction runs */
    trnsciFree(c);
    assert_int_equal(trnsciMalloc((void **)&c, 15 * 4), trnsciSuccess);
    assert_int_equal(trntensorEinsum(h, "ik,kj->ij", &one, da, a, db, b, &zero, dc, c,
                                     TRNTENSOR_COMPUTE_DESC_32F),
                     TRNTENSOR_STATUS_SUCCESS);
    assert_int_equal(trnsciDeviceSynchronize(), trnsciSuccess);
    trntensorDestroyTensorDescriptor(da);
    trntensorDestroyTensorDescriptor(db);
    trntensorDestroyTensorDescriptor(dc);
    trnsciFree(a);
    trnsciFree(b);
    trnsciFree(c);
    trntensorDestroy(h);
}

int main(int argc, char **argv) {
    if (argc >= 4 && strcmp(argv[1], "--role") == 0)
        return child_plan(argv[3]);
    snprintf(tmp_dir, sizeof(tmp_dir), "/tmp/trnsci-tensor-XXXXXX");
    if (!mkdtemp(tmp_dir)) {
        perror("mkdtemp");
        return 1;
    }
    if (su_start_daemons(&one_core, &two_cores) != 0)
        return 1;
    local_t.addr = two_cores.unix_addr;
    grpc_t.addr = two_cores.tcp_addr;
    const struct CMUnitTest tests[] = {
        SU_ON(test_contractions, local),
        SU_ON(test_contractions, grpc),
        SU_ON(test_errors, local),
        SU_ON(test_errors, grpc),
        SU_ON(test_convert, local),
        SU_ON(test_convert, grpc),
        SU_ON(test_convert_errors, local),
        SU_ON(test_convert_errors, grpc),
        SU_ON(test_zero_scalar_skips_operand, local),
        SU_ON(test_zero_scalar_skips_operand, grpc),
        SU_ONCE(test_einsum_path),
        SU_ONCE(test_one_core_vs_two_cores),
        SU_ONCE(test_convert_one_core_vs_two_cores),
        SU_ONCE(test_plan_shared_across_processes),
    };
    int failed = cmocka_run_group_tests_name("tensor", tests, NULL, NULL);
    failed += th_daemon_stop_checked(&one_core, "trnscid --cores 1");
    failed += th_daemon_stop_checked(&two_cores, "trnscid --cores 2");
    th_remove_dir(tmp_dir);
    return failed ? 1 : 0;
}
