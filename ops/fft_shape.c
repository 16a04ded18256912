/*
 * fft_shape.c — FFT layout rules and plan keys (see fft_shape.h).
 */
#include "ops/fft_shape.h"
#include "ops/tensor_plan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SPAN_LIMIT ((uint64_t)1 << 62)

int trn_fft_type_double(trn_fft_type t) {
    return t == TRN_FFT_Z2Z || t == TRN_FFT_D2Z || t == TRN_FFT_Z2D;
}

int trn_fft_in_complex(trn_fft_type t) {
    return t != TRN_FFT_R2C && t != TRN_FFT_D2Z && t != TRN_FFT_R2C_16F && t != TRN_FFT_R2C_16BF;
}

int trn_fft_type_c2r(trn_fft_type t) {
    return t == TRN_FFT_C2R || t == TRN_FFT_Z2D || t == TRN_FFT_C2R_16F || t == TRN_FFT_C2R_16BF;
}

int trn_fft_out_complex(trn_fft_type t) {
    return !trn_fft_type_c2r(t);
}

int trn_fft_type_c2c(trn_fft_type t) {
    return t == TRN_FFT_C2C || t == TRN_FFT_Z2Z || t == TRN_FFT_C2C_16F || t == TRN_FFT_C2C_16BF;
}

int trn_fft_type_half(trn_fft_type t) {
    return t >= TRN_FFT_C2C_16BF && t <= TRN_FFT_C2R_16BF ? TRN_FFT_HALF_16BF
           : t >= TRN_FFT_C2C_16F && t <= TRN_FFT_C2R_16F ? TRN_FFT_HALF_16F
                                                          : TRN_FFT_HALF_NONE;
}

size_t trn_fft_elem_size(const trn_fft_side *side) {
    return (side->half ? 2u : side->dbl ? 8u : 4u) * (side->cplx ? 2u : 1u);
}

static const char *const type_names[] = {NULL,      "c2c",     "r2c",    "c2r",    "z2z",
                                         "d2z",     "z2d",     "c2c16f", "r2c16f", "c2r16f",
                                         "c2c16bf", "r2c16bf", "c2r16bf"};

const char *trn_fft_type_name(trn_fft_type t) {
    return t >= TRN_FFT_C2C && t <= TRN_FFT_TYPE_LAST ? type_names[t] : NULL;
}

static const char *const effort_names[] = {"estimate", "measure", "patient"};

const char *trn_plan_effort_name(trn_plan_effort e) {
    return e <= TRN_PLAN_PATIENT ? effort_names[e] : "?";
}

int trn_plan_effort_parse(const char *s) {
    for (int i = 0; i <= TRN_PLAN_PATIENT; i++)
        if (strcmp(s, effort_names[i]) == 0)
            return i;
    return -1;
}

/* Logical sizes of a side: a complex side of a real transform holds the
 * n/2 + 1 non-redundant elements of the last dimension. */
static void side_sizes(const trn_fft_shape *s, int cplx, trn_fft_side *side) {
    const int real_transform = !trn_fft_type_c2c(s->type);
    side->rank = s->rank;
    for (int d = 0; d < s->rank; d++)
        side->n[d] = s->n[d];
    if (real_transform && cplx)
        side->n[s->rank - 1] = s->n[s->rank - 1] / 2 + 1;
    side->cplx = cplx;
    side->dbl = trn_fft_type_double(s->type);
    side->half = trn_fft_type_half(s->type);
}

void trn_fft_sides(const trn_fft_shape *s, int inplace, trn_fft_side *in, trn_fft_side *out) {
    memset(in, 0, sizeof(*in));
    memset(out, 0, sizeof(*out));
    side_sizes(s, trn_fft_in_complex(s->type), in);
    side_sizes(s, trn_fft_out_complex(s->type), out);
    if (!s->basic) {
        for (int d = 0; d < s->rank; d++) {
            in->embed[d] = s->inembed[d];
            out->embed[d] = s->onembed[d];
        }
        in->embed[0] = in->n[0];
        out->embed[0] = out->n[0];
        in->stride = s->istride;
        out->stride = s->ostride;
        return;
    }
    for (int d = 0; d < s->rank; d++) {
        in->embed[d] = in->n[d];
        out->embed[d] = out->n[d];
    }
    in->stride = out->stride = 1;
    if (inplace && (!in->cplx || !out->cplx)) {
        /* Real rows padded to hold the complex side. trn_fft_shape_check
         * keeps this in int; saturate for a shape it has not checked yet. */
        const int last = s->rank - 1;
        const long long pad = 2 * ((long long)s->n[last] / 2 + 1);
        const int p = pad > 0x7fffffff ? 0x7fffffff : (int)pad;
        if (!in->cplx)
            in->embed[last] = p;
        if (!out->cplx)
            out->embed[last] = p;
    }
}

uint64_t trn_fft_span(const trn_fft_side *side) {
    uint64_t off = 0, scale = 1;
    for (int d = side->rank - 1; d >= 0; d--) {
        off += (uint64_t)(side->n[d] - 1) * scale;
        scale *= (uint64_t)side->embed[d];
    }
    return 1 + off * (uint64_t)side->stride;
}

uint64_t trn_fft_block(const trn_fft_side *side) {
    uint64_t p = 1;
    for (int d = 0; d < side->rank; d++)
        p *= (uint64_t)side->embed[d];
    return p * (uint64_t)side->stride;
}

double trn_fft_points(const trn_fft_shape *s) {
    double p = 1;
    for (int d = 0; d < s->rank; d++)
        p *= s->n[d];
    return p;
}

/* Checks one side's embeds and that its span stays below SPAN_LIMIT with
 * every intermediate product checked. */
static int side_check(const trn_fft_side *side, const char *name, char *err, size_t errlen) {
    if (side->stride < 1) {
        snprintf(err, errlen, "%sstride %d must be >= 1", name, side->stride);
        return -1;
    }
    uint64_t scale = 1, off = 0;
    for (int d = side->rank - 1; d >= 0; d--) {
        if (side->embed[d] < side->n[d]) {
            snprintf(err, errlen,
                     "%s[%d] = %d must be >= %d, the size of dimension %d on this side",
                     name[0] == 'i' ? "inembed" : "onembed", d, side->embed[d], side->n[d], d);
            return -1;
        }
        uint64_t t;
        if (__builtin_mul_overflow((uint64_t)(side->n[d] - 1), scale, &t) ||
            __builtin_add_overflow(off, t, &off) ||
            __builtin_mul_overflow(scale, (uint64_t)side->embed[d], &scale) || scale >= SPAN_LIMIT)
            goto too_big;
    }
    uint64_t span;
    if (__builtin_mul_overflow(off, (uint64_t)side->stride, &span) || span >= SPAN_LIMIT ||
        __builtin_mul_overflow(scale, (uint64_t)side->stride, &scale) || scale >= SPAN_LIMIT)
        goto too_big;
    return 0;
too_big:
    snprintf(err, errlen, "the %sput layout of one transform spans more than 2^62 elements",
             name[0] == 'i' ? "in" : "out");
    return -1;
}

int trn_fft_shape_check(const trn_fft_shape *s, char *err, size_t errlen) {
    if (!trn_fft_type_name(s->type)) {
        snprintf(err, errlen, "type %d is not an FFT type", (int)s->type);
        return -1;
    }
    if (s->rank < 1 || s->rank > TRN_FFT_MAX_RANK) {
        snprintf(err, errlen, "rank %d must be 1, 2 or 3", s->rank);
        return -1;
    }
    for (int d = 0; d < s->rank; d++)
        if (s->n[d] < 1) {
            snprintf(err, errlen, "n[%d] = %d must be >= 1", d, s->n[d]);
            return -1;
        }
    const int real = !trn_fft_type_c2c(s->type);
    if (real && s->n[s->rank - 1] > 0x7fffffff - 2) { /* in-place rows hold 2(n/2+1) reals */
        snprintf(err, errlen, "n[%d] = %d of a real transform must be <= 2147483645", s->rank - 1,
                 s->n[s->rank - 1]);
        return -1;
    }
    for (int inplace = 0; inplace < 2; inplace++) {
        trn_fft_side in, out;
        trn_fft_sides(s, inplace, &in, &out);
        if (side_check(&in, "i", err, errlen) || side_check(&out, "o", err, errlen))
            return -1;
    }
    return 0;
}

/* "64x32x8" */
static int dims_format(const int *v, int rank, char *buf, size_t len) {
    int w = 0;
    for (int d = 0; d < rank; d++) {
        const int k =
            snprintf(buf + w, (size_t)w < len ? len - (size_t)w : 0, d ? "x%d" : "%d", v[d]);
        w += k;
    }
    return w;
}

/* Appends the n bytes of s at buf + w (the text so far, w bytes long) as
 * snprintf would: truncated to fit len with its NUL. Returns w + n. */
static size_t append(char *buf, size_t len, size_t w, const char *s, size_t n) {
    if (w + 1 < len) {
        const size_t room = len - 1 - w, k = n < room ? n : room;
        memcpy(buf + w, s, k);
        buf[w + k] = '\0';
    }
    return w + n;
}

/* "program KERNEL PARAMS": formatted for every op that runs a kernel
 * program, so without snprintf (which costs several times the copies). */
static int program_format(const trn_plan_spec *spec, char *buf, size_t len) {
    const char *kernel = spec->u.program.kernel, *params = spec->u.program.params;
    const size_t nk = strnlen(kernel, sizeof(spec->u.program.kernel));
    const size_t np = strnlen(params, sizeof(spec->u.program.params));
    if (len)
        buf[0] = '\0';
    size_t w = append(buf, len, 0, "program ", 8);
    w = append(buf, len, w, kernel, nk);
    w = append(buf, len, w, " ", 1);
    w = append(buf, len, w, params, np);
    return (int)w;
}

int trn_plan_spec_format(const trn_plan_spec *spec, char *buf, size_t len) {
    if (spec->family == TRN_PLAN_PROGRAM)
        return program_format(spec, buf, len);
    if (spec->family == TRN_PLAN_TENSOR) /* no effort: a contraction plan is not searched */
        return trn_tensor_spec_format(&spec->u.tensor, buf, len);
    const trn_fft_shape *s = &spec->u.fft;
    char n[48], ie[48], oe[48];
    dims_format(s->n, s->rank, n, sizeof(n));
    const char *type = trn_fft_type_name(s->type);
    if (s->basic)
        return snprintf(buf, len, "fft %s %s basic %s", type ? type : "?", n,
                        trn_plan_effort_name(spec->effort));
    trn_fft_side in, out;
    trn_fft_sides(s, 0, &in, &out);
    dims_format(in.embed, s->rank, ie, sizeof(ie));
    dims_format(out.embed, s->rank, oe, sizeof(oe));
    return snprintf(buf, len, "fft %s %s in=%s:%d out=%s:%d %s", type ? type : "?", n, ie,
                    s->istride, oe, s->ostride, trn_plan_effort_name(spec->effort));
}

/* Parses "a", "axb" or "axbxc" into v; returns the count or -1. */
static int dims_parse(const char *p, char end, int *v, const char **rest) {
    int k = 0;
    for (;;) {
        char *e;
        const long x = strtol(p, &e, 10);
        if (e == p || x < 1 || x > 0x7fffffff || k == TRN_FFT_MAX_RANK)
            return -1;
        v[k++] = (int)x;
        if (*e == 'x') {
            p = e + 1;
            continue;
        }
        if (*e != end)
            return -1;
        *rest = e;
        return k;
    }
}

/* "KERNEL PARAMS": a name of [a-z0-9_] and printable parameters. */
static int program_parse(const char *text, trn_plan_spec *spec, char *err, size_t errlen) {
    trn_program_spec *p = &spec->u.program;
    spec->family = TRN_PLAN_PROGRAM;
    const char *sp = strchr(text, ' ');
    const size_t nl = sp ? (size_t)(sp - text) : 0;
    int ok = sp && nl > 0 && nl < sizeof(p->kernel) && strlen(sp + 1) < sizeof(p->params);
    for (size_t i = 0; ok && i < nl; i++)
        ok = (text[i] >= 'a' && text[i] <= 'z') || (text[i] >= '0' && text[i] <= '9') ||
             text[i] == '_';
    for (const char *c = sp ? sp + 1 : ""; ok && *c; c++)
        ok = *c >= 0x20 && *c < 0x7f;
    if (!ok) {
        snprintf(err, errlen, "not a program plan key: \"%.120s\"", text);
        return -1;
    }
    memcpy(p->kernel, text, nl);
    snprintf(p->params, sizeof(p->params), "%s", sp + 1);
    return 0;
}

int trn_plan_spec_parse(const char *key, trn_plan_spec *spec, char *err, size_t errlen) {
    char type[8], dims[64], a[80], b[80], c[16];
    memset(spec, 0, sizeof(*spec));
    if (strncmp(key, "program ", 8) == 0)
        return program_parse(key + 8, spec, err, errlen);
    if (strncmp(key, "tensor ", 7) == 0) {
        spec->family = TRN_PLAN_TENSOR;
        return trn_tensor_spec_parse(key, &spec->u.tensor, err, errlen);
    }
    spec->family = TRN_PLAN_FFT;
    trn_fft_shape *s = &spec->u.fft;
    const int k = sscanf(key, "fft %7s %63s %79s %79s %15s", type, dims, a, b, c);
    const char *effort = k == 4 ? b : k == 5 ? c : NULL;
    int t = 0;
    for (int i = TRN_FFT_C2C; i <= TRN_FFT_TYPE_LAST; i++)
        if (k >= 4 && strcmp(type, type_names[i]) == 0)
            t = i;
    const char *rest;
    if (!effort || !t || (s->rank = dims_parse(dims, '\0', s->n, &rest)) < 0 ||
        trn_plan_effort_parse(effort) < 0) {
        snprintf(err, errlen, "not a plan key: \"%.120s\"", key);
        return -1;
    }
    s->type = (trn_fft_type)t;
    spec->effort = (trn_plan_effort)trn_plan_effort_parse(effort);
    if (k == 4) {
        if (strcmp(a, "basic") != 0) {
            snprintf(err, errlen, "not a plan key: \"%.120s\"", key);
            return -1;
        }
        s->basic = 1;
    } else {
        int ie[TRN_FFT_MAX_RANK], oe[TRN_FFT_MAX_RANK], is[TRN_FFT_MAX_RANK], os[TRN_FFT_MAX_RANK];
        if (strncmp(a, "in=", 3) != 0 || strncmp(b, "out=", 4) != 0 ||
            dims_parse(a + 3, ':', ie, &rest) != s->rank ||
            dims_parse(rest + 1, '\0', is, &rest) != 1 ||
            dims_parse(b + 4, ':', oe, &rest) != s->rank ||
            dims_parse(rest + 1, '\0', os, &rest) != 1) {
            snprintf(err, errlen, "not a plan key: \"%.120s\"", key);
            return -1;
        }
        s->istride = is[0];
        s->ostride = os[0];
        memcpy(s->inembed, ie, sizeof(ie));
        memcpy(s->onembed, oe, sizeof(oe));
    }
    return trn_fft_shape_check(s, err, errlen);
}
