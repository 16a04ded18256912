/*
 * program_seq.c — the parameter text of the GEMM sequence program
 * (program.h, "gemm_seq"): formatting, parsing, and the checks both share.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/neuron/program.h"

static const char *const mode_names[] = {"fp32", "bf16", "bf16x3"};
static const char *const operand_names[] = {"at", "b", "c"};

/* The rows and columns operand `which` of node n has (at: K x M, b: K x N,
 * c: M x N), which an earlier node's M x N result must match. */
static void operand_shape(const trn_nprog_gemm *n, int which, int *rows, int *cols) {
    *rows = which == 2 ? n->m : n->k;
    *cols = which == 0 ? n->m : n->n;
}

/* Whether s is a sequence the program runs; err says why not. */
static int check_seq(const trn_nprog_seq *s, char *err, size_t errlen) {
    if (s->nodes < 2 || s->nodes > TRN_NPROG_SEQ_MAX) {
        snprintf(err, errlen, "a sequence has 2 to %d nodes, not %d", TRN_NPROG_SEQ_MAX, s->nodes);
        return -1;
    }
    if ((unsigned)s->mode > TRN_NPROG_BF16X3) {
        snprintf(err, errlen, "mode must be fp32, bf16 or bf16x3");
        return -1;
    }
    const uint64_t limit = 1ull << 40;
    for (int j = 0; j < s->nodes; j++) {
        const trn_nprog_gemm *n = &s->node[j];
        if (n->m < 1 || n->n < 1 || n->k < 1 || n->batch < 1 || n->complex != s->complex ||
            n->mode != s->mode) {
            snprintf(err, errlen, "node %d: m, n, k and batch must be integers >= 1", j);
            return -1;
        }
        const trn_nprog_gemm_bytes b = trn_nprog_gemm_sizes(n);
        if (b.at > limit || b.b > limit || b.c > limit) {
            snprintf(err, errlen, "node %d: a tensor exceeds 2^40 bytes", j);
            return -1;
        }
        for (int w = 0; w < 3; w++) {
            const int i = s->src[j][w];
            if (i == TRN_NPROG_SEQ_IN)
                continue;
            if (i < 0 || i >= j) {
                snprintf(err, errlen, "node %d: %s must be \"in\" or the d of an earlier node", j,
                         operand_names[w]);
                return -1;
            }
            int rows, cols;
            operand_shape(n, w, &rows, &cols);
            const trn_nprog_gemm *from = &s->node[i];
            if (from->m != rows || from->n != cols || from->batch != n->batch) {
                snprintf(err, errlen,
                         "node %d: %s is %dx%d (batch %d), but d%d is %dx%d (batch %d)", j,
                         operand_names[w], rows, cols, n->batch, i, from->m, from->n, from->batch);
                return -1;
            }
        }
    }
    return 0;
}

int trn_nprog_seq_format(const trn_nprog_seq *s, char *buf, size_t len) {
    char err[160];
    if (len == 0 || check_seq(s, err, sizeof(err)) != 0)
        return -1;
    size_t n = (size_t)snprintf(buf, len, "dtype=%s mode=%s nodes=%d", s->complex ? "c32" : "f32",
                                mode_names[s->mode], s->nodes);
    for (int j = 0; j < s->nodes && n < len; j++) {
        const trn_nprog_gemm *g = &s->node[j];
        char src[3][16];
        for (int w = 0; w < 3; w++) {
            if (s->src[j][w] == TRN_NPROG_SEQ_IN)
                snprintf(src[w], sizeof(src[w]), "in");
            else
                snprintf(src[w], sizeof(src[w]), "d%d", s->src[j][w]);
        }
        n += (size_t)snprintf(buf + n, len - n, " g%d=%dx%dx%dx%d:%s,%s,%s", j, g->m, g->n, g->k,
                              g->batch, src[0], src[1], src[2]);
    }
    if (n >= len)
        return -1;
    return (int)n;
}

/* An integer >= 1 that fits in int at *p, in decimal without a leading
 * zero (one text per sequence: it is a cache key), ended by `end`;
 * advances *p past the end character. -1 when there is none. */
static int dim_at(const char **p, char end) {
    char *stop;
    if (**p < '1' || **p > '9')
        return -1;
    const long v = strtol(*p, &stop, 10);
    if (*stop != end || v < 1 || v > 0x7fffffff)
        return -1;
    *p = stop + 1;
    return (int)v;
}

/* One operand source at *p ("in" or "dI"), ended by `end`. Returns 0 with
 * *src set, or -1. */
static int source_at(const char **p, char end, int *src) {
    if (strncmp(*p, "in", 2) == 0 && (*p)[2] == end) {
        *src = TRN_NPROG_SEQ_IN;
        *p += 3;
        return 0;
    }
    if (**p != 'd' || (*p)[1] < '0' || (*p)[1] > '9' || (*p)[2] != end)
        return -1;
    *src = (*p)[1] - '0';
    *p += 3;
    return 0;
}

/* Node j's item at *p ("gJ=MxNxKxB:AT,B,C" then ' ' or the end). */
static int node_at(const char **p, int j, trn_nprog_seq *s) {
    char head[16];
    snprintf(head, sizeof(head), "g%d=", j);
    if (strncmp(*p, head, strlen(head)) != 0)
        return -1;
    *p += strlen(head);
    trn_nprog_gemm *g = &s->node[j];
    g->complex = s->complex;
    g->mode = s->mode;
    const char last = j + 1 < s->nodes ? ' ' : '\0';
    if ((g->m = dim_at(p, 'x')) < 0 || (g->n = dim_at(p, 'x')) < 0 || (g->k = dim_at(p, 'x')) < 0 ||
        (g->batch = dim_at(p, ':')) < 0 || source_at(p, ',', &s->src[j][0]) != 0 ||
        source_at(p, ',', &s->src[j][1]) != 0 || source_at(p, last, &s->src[j][2]) != 0)
        return -1;
    if (!last)
        (*p)--; /* on the NUL */
    return 0;
}

int trn_nprog_seq_parse(const char *text, trn_nprog_seq *s, char *err, size_t errlen) {
    memset(s, 0, sizeof(*s));
    if (strlen(text) >= TRN_NPROG_SEQ_PARAMS_LEN) {
        snprintf(err, errlen, "parameters too long");
        return -1;
    }
    const char *p = text;
    if (strncmp(p, "dtype=f32 ", 10) == 0 || strncmp(p, "dtype=c32 ", 10) == 0)
        s->complex = p[6] == 'c';
    else {
        snprintf(err, errlen, "dtype must be f32 or c32 in \"%s\"", text);
        return -1;
    }
    p += 10;
    int mode = -1;
    for (int i = 0; i < 3; i++) {
        const size_t l = strlen(mode_names[i]);
        if (strncmp(p, "mode=", 5) == 0 && strncmp(p + 5, mode_names[i], l) == 0 && p[5 + l] == ' ')
            mode = i;
    }
    if (mode < 0) {
        snprintf(err, errlen, "mode must be fp32, bf16 or bf16x3 in \"%s\"", text);
        return -1;
    }
    s->mode = (trn_nprog_mode)mode;
    p += 5 + strlen(mode_names[mode]) + 1;
    if (strncmp(p, "nodes=", 6) != 0 || p[6] < '2' || p[6] > '0' + TRN_NPROG_SEQ_MAX ||
        p[7] != ' ') {
        snprintf(err, errlen, "nodes must be 2 to %d in \"%s\"", TRN_NPROG_SEQ_MAX, text);
        return -1;
    }
    s->nodes = p[6] - '0';
    p += 8;
    for (int j = 0; j < s->nodes; j++)
        if (node_at(&p, j, s) != 0) {
            snprintf(err, errlen,
                     "node %d must be g%d=MxNxKxB:AT,B,C (sources in or dI; the last node ends "
                     "the text) in \"%s\"",
                     j, j, text);
            return -1;
        }
    return check_seq(s, err, errlen);
}
