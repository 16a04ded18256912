/*
 * program.c — the parameter text of kernel programs (program.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/neuron/program.h"

static const char *const mode_names[] = {"fp32", "bf16", "bf16x3"};

static int same_gemm(const trn_nprog_gemm *a, const trn_nprog_gemm *b) {
    return a->complex == b->complex && a->mode == b->mode && a->m == b->m && a->n == b->n &&
           a->k == b->k && a->batch == b->batch && a->layout == b->layout && a->ta == b->ta &&
           a->tb == b->tb;
}

void trn_nprog_gemm_stored(const trn_nprog_gemm *g, int which, int *rows, int *cols) {
    /* which: 0 A (op(A) is m×k), 1 B (op(B) is k×n). */
    const int r = which == 0 ? g->m : g->k, c = which == 0 ? g->k : g->n;
    const int t = which == 0 ? g->ta : g->tb;
    *rows = t ? c : r;
    *cols = t ? r : c;
}

/* Whether a COLMAJOR program is one the kernel takes: real, ta and tb 0 or 1. */
static int colmajor_valid(const trn_nprog_gemm *g) {
    return !g->complex && (g->ta == 0 || g->ta == 1) && (g->tb == 0 || g->tb == 1);
}

int trn_nprog_gemm_format(const trn_nprog_gemm *g, char *buf, size_t len) {
    /* The daemon formats the program of every GEMM it accepts (its plan's
     * key): a stream of one shape formats the same text again and again,
     * so the thread's last text is kept (snprintf is most of the cost). */
    static _Thread_local struct {
        trn_nprog_gemm g;
        int n; /* > 0: text holds g's */
        char text[TRN_NPROG_PARAMS_LEN];
    } last;
    if ((unsigned)g->mode > TRN_NPROG_BF16X3 ||
        (g->layout == TRN_NPROG_COLMAJOR && !colmajor_valid(g)))
        return -1;
    if (last.n > 0 && same_gemm(&last.g, g)) {
        if ((size_t)last.n >= len)
            return -1;
        memcpy(buf, last.text, (size_t)last.n + 1);
        return last.n;
    }
    int n = snprintf(buf, len, "dtype=%s mode=%s m=%d n=%d k=%d batch=%d",
                     g->complex ? "c32" : "f32", mode_names[g->mode], g->m, g->n, g->k, g->batch);
    if (n >= 0 && (size_t)n < len && g->layout == TRN_NPROG_COLMAJOR) {
        const int more = snprintf(buf + n, len - (size_t)n, " layout=cm ta=%c tb=%c",
                                  g->ta ? 't' : 'n', g->tb ? 't' : 'n');
        n = more < 0 ? -1 : n + more;
    }
    if (n < 0 || (size_t)n >= len)
        return -1;
    if ((size_t)n < sizeof(last.text)) {
        last.g = *g;
        last.n = n;
        memcpy(last.text, buf, (size_t)n + 1);
    }
    return n;
}

/* The value of "name=" in text as a positive int, or -1. */
static int int_param(const char *text, const char *name) {
    char pat[16];
    snprintf(pat, sizeof(pat), " %s=", name);
    char padded[TRN_NPROG_PARAMS_LEN + 2];
    snprintf(padded, sizeof(padded), " %s", text);
    const char *p = strstr(padded, pat);
    if (!p)
        return -1;
    p += strlen(pat);
    char *end;
    const long v = strtol(p, &end, 10);
    if (end == p || (*end && *end != ' ') || v < 1 || v > 0x7fffffff)
        return -1;
    return (int)v;
}

/* The value of "name=" in text as one of the letters n, t: 0, 1, or -1. */
static int trans_param(const char *text, const char *name) {
    char pat[16];
    snprintf(pat, sizeof(pat), " %s=", name);
    const char *p = strstr(text, pat);
    if (!p || (p[strlen(pat)] != 'n' && p[strlen(pat)] != 't'))
        return -1;
    const char end = p[strlen(pat) + 1];
    return end == ' ' || end == '\0' ? p[strlen(pat)] == 't' : -1;
}

/* The layout part of a parameter text: nothing (packed), or
 * " layout=cm ta=. tb=." after batch. */
static int parse_layout(const char *text, trn_nprog_gemm *g, char *err, size_t errlen) {
    const char *l = strstr(text, " layout=");
    if (!l)
        return 0;
    if (strncmp(l, " layout=cm ", 11) != 0) {
        snprintf(err, errlen, "layout must be cm in \"%s\"", text);
        return -1;
    }
    g->layout = TRN_NPROG_COLMAJOR;
    g->ta = trans_param(l, "ta");
    g->tb = trans_param(l, "tb");
    if (g->ta < 0 || g->tb < 0 || !colmajor_valid(g)) {
        snprintf(err, errlen, "layout=cm needs dtype=f32 and ta, tb n or t in \"%s\"", text);
        return -1;
    }
    return 0;
}

int trn_nprog_gemm_parse(const char *text, trn_nprog_gemm *g, char *err, size_t errlen) {
    memset(g, 0, sizeof(*g));
    if (strlen(text) >= TRN_NPROG_PARAMS_LEN) {
        snprintf(err, errlen, "parameters too long");
        return -1;
    }
    if (strncmp(text, "dtype=f32 ", 10) == 0)
        g->complex = 0;
    else if (strncmp(text, "dtype=c32 ", 10) == 0)
        g->complex = 1;
    else {
        snprintf(err, errlen, "dtype must be f32 or c32 in \"%s\"", text);
        return -1;
    }
    const char *m = strstr(text, " mode=");
    int mode = -1;
    for (int i = 0; m && i < 3; i++) {
        const size_t l = strlen(mode_names[i]);
        if (strncmp(m + 6, mode_names[i], l) == 0 && m[6 + l] == ' ')
            mode = i;
    }
    if (mode < 0) {
        snprintf(err, errlen, "mode must be fp32, bf16 or bf16x3 in \"%s\"", text);
        return -1;
    }
    g->mode = (trn_nprog_mode)mode;
    g->m = int_param(text, "m");
    g->n = int_param(text, "n");
    g->k = int_param(text, "k");
    g->batch = int_param(text, "batch");
    if (g->m < 0 || g->n < 0 || g->k < 0 || g->batch < 0) {
        snprintf(err, errlen, "m, n, k and batch must be integers >= 1 in \"%s\"", text);
        return -1;
    }
    if (parse_layout(text, g, err, errlen) != 0)
        return -1;
    const trn_nprog_gemm_bytes b = trn_nprog_gemm_sizes(g);
    const uint64_t limit = 1ull << 40;
    if (b.at > limit || b.b > limit || b.c > limit || b.d > limit) {
        snprintf(err, errlen, "a tensor of \"%s\" exceeds 2^40 bytes", text);
        return -1;
    }
    return 0;
}

trn_nprog_gemm_bytes trn_nprog_gemm_sizes(const trn_nprog_gemm *g) {
    /* Every factor is < 2^31 and batch·planes·4 < 2^34: products of two
     * dimensions fit; the batch factor is checked against the limit. */
    const uint64_t per = (uint64_t)(g->complex ? 2 : 1) * 4u;
    const uint64_t bt = (uint64_t)g->batch;
    const uint64_t km = (uint64_t)g->k * (uint64_t)g->m, kn = (uint64_t)g->k * (uint64_t)g->n,
                   mn = (uint64_t)g->m * (uint64_t)g->n;
    const uint64_t big = UINT64_MAX / 2;
    trn_nprog_gemm_bytes r;
    r.at = km > big / (bt * per) ? big : km * bt * per;
    r.b = kn > big / (bt * per) ? big : kn * bt * per;
    r.c = mn > big / (bt * per) ? big : mn * bt * per;
    r.d = r.c; /* both layouts hold the same elements, laid out otherwise */
    r.scal = (uint64_t)(g->complex ? 4 : 2) * 4u;
    return r;
}
