/*
 * tensor_plan.c — checking contraction specs, their GEMM mapping and their
 * plan-cache keys (see tensor_plan.h). Pure functions of the spec: the same
 * spec always gives the same plan, whatever process or core asks.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ops/tensor_plan.h"

#define SPAN_MAX (UINT64_C(1) << 62)
/* A packed operand holds at most this many elements (2 GiB of doubles). */
#define PACK_MAX_ELEMENTS (INT64_C(1) << 28)

static const char *const compute_names[] = {
    [TRN_COMPUTE_DEFAULT] = "DEFAULT",
    [TRN_COMPUTE_32F] = "32F",
    [TRN_COMPUTE_64F] = "64F",
    [TRN_COMPUTE_32F_FAST_16BF] = "32F_FAST_16BF",
    [TRN_COMPUTE_32F_FAST_TF32] = "32F_FAST_TF32",
    [TRN_COMPUTE_32F_BF16X3] = "32F_BF16X3",
    [TRN_COMPUTE_32F_BF16X9] = "32F_BF16X9",
    [TRN_COMPUTE_64F_EMULATED] = "64F_EMULATED",
    [TRN_COMPUTE_32F_FAST_16F] = "32F_FAST_16F",
};
#define NCOMPUTE ((int)(sizeof(compute_names) / sizeof(compute_names[0])))

uint64_t trn_tensor_span(const trn_tensor_layout *l) {
    uint64_t span = 1;
    for (int i = 0; i < l->nmodes; i++) {
        if (l->extent[i] < 1 || l->stride[i] < 0)
            return 0;
        const uint64_t e = (uint64_t)l->extent[i] - 1, s = (uint64_t)l->stride[i];
        if (e && s > SPAN_MAX / e)
            return 0;
        span += e * s;
        if (span > SPAN_MAX)
            return 0;
    }
    return span;
}

int trn_tensor_overlaps(const trn_tensor_layout *l) {
    /* Modes of extent > 1 by increasing stride: each must step over all the
     * faster ones (sufficient for distinct addresses; spans fit, see
     * trn_tensor_span). */
    int idx[TRN_TENSOR_MAX_MODES], n = 0;
    for (int i = 0; i < l->nmodes; i++)
        if (l->extent[i] > 1)
            idx[n++] = i;
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && l->stride[idx[j]] < l->stride[idx[j - 1]]; j--) {
            const int t = idx[j];
            idx[j] = idx[j - 1];
            idx[j - 1] = t;
        }
    int64_t reach = 1; /* elements covered by the faster modes */
    for (int i = 0; i < n; i++) {
        const int m = idx[i];
        if (l->stride[m] < reach)
            return 1;
        reach = l->stride[m] * l->extent[m]; /* fits: bounded by the span */
    }
    return 0;
}

static int find(const trn_tensor_layout *l, int32_t label) {
    for (int i = 0; i < l->nmodes; i++)
        if (l->mode[i] == label)
            return i;
    return -1;
}

int trn_tensor_spec_check(trn_tensor_contract_spec *s, char *err, size_t errlen) {
    trn_tensor_layout *ops[3] = {&s->a, &s->b, &s->d};
    static const char names[3] = {'A', 'B', 'D'};
    for (int o = 0; o < 3; o++) {
        const trn_tensor_layout *l = ops[o];
        if (l->nmodes < 0 || l->nmodes > TRN_TENSOR_MAX_MODES) {
            snprintf(err, errlen, "tensor contraction: %c has %d modes, more than the %d supported",
                     names[o], l->nmodes, TRN_TENSOR_MAX_MODES);
            return -2;
        }
        for (int i = 0; i < l->nmodes; i++) {
            if (l->extent[i] < 1 || l->stride[i] < 1) {
                snprintf(err, errlen,
                         "tensor contraction: %c mode %d: extent %lld and stride %lld must be >= 1",
                         names[o], i, (long long)l->extent[i], (long long)l->stride[i]);
                return -1;
            }
            for (int j = 0; j < i; j++)
                if (l->mode[j] == l->mode[i]) {
                    snprintf(err, errlen,
                             "tensor contraction: %c repeats mode %d (modes %d and %d)", names[o],
                             (int)l->mode[i], j, i);
                    return -1;
                }
        }
        if (!trn_tensor_span(l)) {
            snprintf(err, errlen, "tensor contraction: the extent of %c overflows", names[o]);
            return -1;
        }
    }
    if (trn_tensor_overlaps(&s->d)) {
        snprintf(err, errlen,
                 "tensor contraction: the strides of D make two of its elements overlap");
        return -1;
    }
    /* Every label: equal extents wherever it appears, in at least two of
     * A, B, D (D's first: a mode of D from nowhere is the caller's error). */
    for (int o = 2; o >= 0; o--) {
        const trn_tensor_layout *l = ops[o];
        for (int i = 0; i < l->nmodes; i++) {
            int count = 0;
            for (int p = 0; p < 3; p++) {
                const int j = find(ops[p], l->mode[i]);
                if (j < 0)
                    continue;
                count++;
                if (ops[p]->extent[j] != l->extent[i]) {
                    snprintf(err, errlen,
                             "tensor contraction: mode %d has extent %lld in %c but %lld in %c",
                             (int)l->mode[i], (long long)l->extent[i], names[o],
                             (long long)ops[p]->extent[j], names[p]);
                    return -1;
                }
            }
            if (count < 2 && l->extent[i] > 1) {
                if (o == 2)
                    snprintf(err, errlen, "tensor contraction: mode %d of D is in neither A nor B",
                             (int)l->mode[i]);
                else
                    snprintf(err, errlen,
                             "tensor contraction: mode %d of %c is in neither %c nor D (sum it "
                             "with trntensorReduce first)",
                             (int)l->mode[i], names[o], names[1 - o]);
                return o == 2 ? -1 : -2;
            }
        }
    }
    /* Canonical labels: order of first appearance in A, B, D. */
    int32_t seen[3 * TRN_TENSOR_MAX_MODES];
    int nseen = 0;
    for (int o = 0; o < 3; o++)
        for (int i = 0; i < ops[o]->nmodes; i++) {
            int k = 0;
            while (k < nseen && seen[k] != ops[o]->mode[i])
                k++;
            if (k == nseen)
                seen[nseen++] = ops[o]->mode[i];
        }
    if (nseen > 26) { /* keys name modes a..z */
        snprintf(err, errlen, "tensor contraction: %d distinct modes, more than the 26 supported",
                 nseen);
        return -2;
    }
    for (int o = 0; o < 3; o++)
        for (int i = 0; i < ops[o]->nmodes; i++) {
            int k = 0;
            while (seen[k] != ops[o]->mode[i])
                k++;
            ops[o]->mode[i] = k;
        }
    return 0;
}

/* ---- the mapping ------------------------------------------------------------ */

/* Appends label's mode to g with the strides of x, y, d (0 when absent). */
static void group_add(trn_tensor_group *g, int64_t extent, int64_t sx, int64_t sy, int64_t sd) {
    g->extent[g->n] = extent;
    g->stride[TRN_TP_X][g->n] = sx;
    g->stride[TRN_TP_Y][g->n] = sy;
    g->stride[TRN_TP_D][g->n] = sd;
    g->n++;
}

/* Orders g's modes by operand o's strides (stable insertion sort). */
static void group_sort(trn_tensor_group *g, int o) {
    for (int i = 1; i < g->n; i++)
        for (int j = i; j > 0 && g->stride[o][j] < g->stride[o][j - 1]; j--) {
            int64_t t = g->extent[j];
            g->extent[j] = g->extent[j - 1];
            g->extent[j - 1] = t;
            for (int p = 0; p < 3; p++) {
                t = g->stride[p][j];
                g->stride[p][j] = g->stride[p][j - 1];
                g->stride[p][j - 1] = t;
            }
        }
    g->total = 1;
    for (int i = 0; i < g->n; i++)
        g->total *= g->extent[i];
}

/* The single stride of g in operand o when its modes fuse into one index
 * (1 for an empty group), else 0. */
static int64_t fused(const trn_tensor_group *g, int o) {
    if (g->n == 0)
        return 1;
    for (int i = 1; i < g->n; i++)
        if (g->stride[o][i] != g->stride[o][i - 1] * g->extent[i - 1])
            return 0;
    return g->stride[o][0];
}

/* View of operand o as a rows x cols column-major matrix (trans N), or its
 * transpose (trans T), in place when the groups allow it. */
static trn_tensor_view view_of(const trn_tensor_group *rows, const trn_tensor_group *cols, int o,
                               int allow_t) {
    trn_tensor_view v = {.packed = 1, .trans = TRN_TRANS_N, .ld = 0};
    const int64_t r = rows->total, c = cols->total;
    const int64_t sr = fused(rows, o), sc = fused(cols, o);
    if (!sr || !sc)
        return v;
    /* Trans N: rows at stride 1, columns at ld >= rows. */
    if ((r == 1 || sr == 1) && (c == 1 || sc >= r)) {
        const int64_t ld = c == 1 ? (r > 1 ? r : 1) : sc;
        if (ld <= INT32_MAX)
            return (trn_tensor_view){.packed = 0, .trans = TRN_TRANS_N, .ld = (int)ld};
    }
    /* Trans T: the stored matrix is cols x rows. */
    if (allow_t && (c == 1 || sc == 1) && (r == 1 || sr >= c)) {
        const int64_t ld = r == 1 ? (c > 1 ? c : 1) : sr;
        if (ld <= INT32_MAX)
            return (trn_tensor_view){.packed = 0, .trans = TRN_TRANS_T, .ld = (int)ld};
    }
    return v;
}

/* Groups the modes with A or B as X (swap = 0: X = A) and orders them. */
static void classify(const trn_tensor_contract_spec *s, int swap, trn_tensor_plan *p) {
    const trn_tensor_layout *x = swap ? &s->b : &s->a, *y = swap ? &s->a : &s->b, *d = &s->d;
    memset(&p->rows, 0, sizeof(p->rows));
    memset(&p->cols, 0, sizeof(p->cols));
    memset(&p->sum, 0, sizeof(p->sum));
    memset(&p->batch, 0, sizeof(p->batch));
    for (int i = 0; i < x->nmodes; i++) {
        if (x->extent[i] == 1)
            continue;
        const int jy = find(y, x->mode[i]), jd = find(d, x->mode[i]);
        const int64_t sy = jy >= 0 ? y->stride[jy] : 0, sd = jd >= 0 ? d->stride[jd] : 0;
        trn_tensor_group *g = jy >= 0 ? (jd >= 0 ? &p->batch : &p->sum) : &p->rows;
        group_add(g, x->extent[i], x->stride[i], sy, sd);
    }
    for (int i = 0; i < y->nmodes; i++)
        if (y->extent[i] > 1 && find(x, y->mode[i]) < 0)
            group_add(&p->cols, y->extent[i], 0, y->stride[i], d->stride[find(d, y->mode[i])]);
    group_sort(&p->rows, TRN_TP_D);
    group_sort(&p->cols, TRN_TP_D);
    group_sort(&p->batch, TRN_TP_D);
    group_sort(&p->sum, TRN_TP_X);
}

/* Moves g's slowest mode (its last) to the batch group, whose modes the
 * kernel loops over: one GEMM per index. */
static void peel(trn_tensor_group *g, trn_tensor_group *batch) {
    const int i = g->n - 1;
    batch->extent[batch->n] = g->extent[i];
    for (int o = 0; o < 3; o++)
        batch->stride[o][batch->n] = g->stride[o][i];
    batch->n++;
    batch->total *= g->extent[i];
    g->total /= g->extent[i];
    g->n--;
}

/* A group of rows or columns is peeled only while what stays has at least
 * this many elements: a loop of smaller GEMMs beats packing, but not once
 * the GEMMs become thin. */
#define PEEL_MIN 16

/* The mapping with the roles swap (X = B when set). Rows or columns whose
 * modes do not fuse into one index of X (Y) and D lose their slowest modes
 * to the batch loop, while that keeps the GEMM wide enough; what still does
 * not fit is packed. Returns the elements copied by packing (the cost to
 * minimise). */
static double arrange(const trn_tensor_contract_spec *s, int swap, trn_tensor_plan *p) {
    classify(s, swap, p);
    p->swap = swap;
    for (;;) {
        p->d = view_of(&p->rows, &p->cols, TRN_TP_D, 0);
        p->x = view_of(&p->rows, &p->sum, TRN_TP_X, 1);
        p->y = view_of(&p->sum, &p->cols, TRN_TP_Y, 1);
        const int rows_split = !fused(&p->rows, TRN_TP_X) || !fused(&p->rows, TRN_TP_D);
        const int cols_split = !fused(&p->cols, TRN_TP_Y) || !fused(&p->cols, TRN_TP_D);
        if ((p->x.packed || p->d.packed) && rows_split && p->rows.n > 1 &&
            p->rows.total / p->rows.extent[p->rows.n - 1] >= PEEL_MIN) {
            peel(&p->rows, &p->batch);
            continue;
        }
        if ((p->y.packed || p->d.packed) && cols_split && p->cols.n > 1 &&
            p->cols.total / p->cols.extent[p->cols.n - 1] >= PEEL_MIN) {
            peel(&p->cols, &p->batch);
            continue;
        }
        break;
    }
    const double m = (double)p->rows.total, n = (double)p->cols.total, k = (double)p->sum.total;
    return (double)p->batch.total * ((p->x.packed ? m * k : 0.0) + (p->y.packed ? k * n : 0.0) +
                                     (p->d.packed ? 2.0 * m * n : 0.0));
}

int trn_tensor_plan_make(const trn_tensor_contract_spec *s, trn_tensor_plan *p, char *err,
                         size_t errlen) {
    /* Both role assignments; the one that copies less (ties: A as X). */
    trn_tensor_plan alt;
    memset(p, 0, sizeof(*p));
    memset(&alt, 0, sizeof(alt));
    const double c0 = arrange(s, 0, p), c1 = arrange(s, 1, &alt);
    if (c1 < c0)
        *p = alt;
    p->magic = TRN_TENSOR_PLAN_MAGIC;
    p->spec = *s;
    const int64_t m = p->rows.total, n = p->cols.total, k = p->sum.total;
    if (m > INT32_MAX || n > INT32_MAX || k > INT32_MAX) {
        snprintf(
            err, errlen,
            "tensor contraction: the GEMM it maps to (m %lld, n %lld, k %lld) exceeds 2^31 - 1",
            (long long)m, (long long)n, (long long)k);
        return -2;
    }
    /* Packed operands: X whole per batch element, Y and D by column block
     * (at most all columns). */
    if ((p->x.packed && m * k > PACK_MAX_ELEMENTS) || (p->y.packed && k * n > PACK_MAX_ELEMENTS) ||
        (p->d.packed && m * n > PACK_MAX_ELEMENTS)) {
        snprintf(err, errlen,
                 "tensor contraction: an operand that must be packed (its modes do not fuse to a "
                 "matrix) would exceed %lld elements",
                 (long long)PACK_MAX_ELEMENTS);
        return -2;
    }
    p->m = (int)m;
    p->n = (int)n;
    p->k = (int)k;
    p->nbatch = p->batch.total;
    p->flops = 2.0 * (double)m * (double)n * (double)k * (double)p->nbatch;
    return 0;
}

/* ---- keys ---------------------------------------------------------------------- */

static const char *type_name(trn_dtype t) {
    switch (t) {
    case TRN_DTYPE_R32F: return "R_32F";
    case TRN_DTYPE_R64F: return "R_64F";
    case TRN_DTYPE_C32F: return "C_32F";
    case TRN_DTYPE_C64F: return "C_64F";
    case TRN_DTYPE_R16F: return "R_16F";
    case TRN_DTYPE_R16BF: return "R_16BF";
    default: return "?";
    }
}

/* "A=a4b8/1,4" (strides omitted when packed: "/p"). */
static int layout_format(char tag, const trn_tensor_layout *l, char *buf, size_t len) {
    size_t w = 0;
#define PUT(...)                                                                                   \
    do {                                                                                           \
        const int k_ = snprintf(buf + (w < len ? w : len), w < len ? len - w : 0, __VA_ARGS__);    \
        w += (size_t)(k_ > 0 ? k_ : 0);                                                            \
    } while (0)
    PUT(" %c=", tag);
    int64_t packed = 1, expect = 1;
    for (int i = 0; i < l->nmodes; i++) {
        PUT("%c%lld", (char)('a' + l->mode[i]), (long long)l->extent[i]);
        if (l->stride[i] != expect)
            packed = 0;
        expect *= l->extent[i];
    }
    if (packed) {
        PUT("/p");
    } else {
        for (int i = 0; i < l->nmodes; i++)
            PUT("%c%lld", i ? ',' : '/', (long long)l->stride[i]);
    }
#undef PUT
    return (int)w;
}

int trn_tensor_spec_format(const trn_tensor_contract_spec *s, char *buf, size_t len) {
    /* Conjugated operands follow the type: "C_32F*A", "C_64F*AB". */
    int w = snprintf(buf, len, "tensor contract %s%s%s%s %s", type_name(s->type),
                     s->conj_a || s->conj_b ? "*" : "", s->conj_a ? "A" : "", s->conj_b ? "B" : "",
                     (int)s->compute >= 0 && (int)s->compute < NCOMPUTE ? compute_names[s->compute]
                                                                        : "?");
    const trn_tensor_layout *ops[3] = {&s->a, &s->b, &s->d};
    for (int o = 0; o < 3; o++)
        w += layout_format("ABD"[o], ops[o], buf + ((size_t)w < len ? (size_t)w : len),
                           (size_t)w < len ? len - (size_t)w : 0);
    return w;
}

static int layout_parse(const char *tok, char tag, trn_tensor_layout *l) {
    if (tok[0] != tag || tok[1] != '=')
        return -1;
    const char *p = tok + 2;
    l->nmodes = 0;
    while (*p >= 'a' && *p <= 'z') {
        if (l->nmodes == TRN_TENSOR_MAX_MODES)
            return -1;
        char *e;
        const long long x = strtoll(p + 1, &e, 10);
        if (e == p + 1 || x < 1)
            return -1;
        l->mode[l->nmodes] = *p - 'a';
        l->extent[l->nmodes++] = x;
        p = e;
    }
    if (*p++ != '/')
        return -1;
    if (strcmp(p, "p") == 0) {
        uint64_t s = 1;
        for (int i = 0; i < l->nmodes; i++) {
            if (s > SPAN_MAX)
                return -1;
            l->stride[i] = (int64_t)s;
            s = (uint64_t)l->extent[i] > SPAN_MAX / s ? SPAN_MAX + 1 : s * (uint64_t)l->extent[i];
        }
        return 0;
    }
    for (int i = 0; i < l->nmodes; i++) {
        char *e;
        const long long x = strtoll(p, &e, 10);
        if (e == p || x < 1 || *e != (i + 1 < l->nmodes ? ',' : '\0'))
            return -1;
        l->stride[i] = x;
        p = e + 1;
    }
    return 0;
}

int trn_tensor_spec_parse(const char *key, trn_tensor_contract_spec *s, char *err, size_t errlen) {
    /* Each token is shorter than the whole key (TRN_PLAN_KEY_LEN = 640). */
    char type[16], compute[16], a[640], b[640], d[640];
    memset(s, 0, sizeof(*s));
    int ok =
        sscanf(key, "tensor contract %15s %15s %639s %639s %639s", type, compute, a, b, d) == 5;
    if (ok) {
        char *star = strchr(type, '*');
        if (star) {
            *star++ = '\0';
            s->conj_a = star[0] == 'A';
            s->conj_b = strcmp(star + s->conj_a, "B") == 0;
            ok = (s->conj_a || s->conj_b) && star[s->conj_a + s->conj_b] == '\0';
        }
        s->type = strcmp(type, "R_32F") == 0    ? TRN_DTYPE_R32F
                  : strcmp(type, "R_64F") == 0  ? TRN_DTYPE_R64F
                  : strcmp(type, "C_32F") == 0  ? TRN_DTYPE_C32F
                  : strcmp(type, "C_64F") == 0  ? TRN_DTYPE_C64F
                  : strcmp(type, "R_16F") == 0  ? TRN_DTYPE_R16F
                  : strcmp(type, "R_16BF") == 0 ? TRN_DTYPE_R16BF
                                                : (trn_dtype)0;
        if (star && s->type != TRN_DTYPE_C32F && s->type != TRN_DTYPE_C64F)
            ok = 0;
        int c = -1;
        for (int i = 0; i < NCOMPUTE; i++)
            if (compute_names[i] && strcmp(compute, compute_names[i]) == 0)
                c = i;
        s->compute = (trn_compute)c;
        ok = ok && s->type && c >= 0 && layout_parse(a, 'A', &s->a) == 0 &&
             layout_parse(b, 'B', &s->b) == 0 && layout_parse(d, 'D', &s->d) == 0;
    }
    if (!ok) {
        snprintf(err, errlen, "not a plan key: \"%.120s\"", key);
        return -1;
    }
    return trn_tensor_spec_check(s, err, errlen) == 0 ? 0 : -1;
}
