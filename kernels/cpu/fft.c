/*
 * fft.c — FFTs on the CPU backend with FFTW (float and double).
 *
 * A plan (cpu_fft_plan) holds one FFTW plan per variant — direction, in or
 * out of place, aligned or not (TRN_FFT_VARIANT_*) — because an FFTW plan is
 * made for one of each. Each variant plans a single transform of the
 * shape's layout; a batch runs it once per transform through FFTW's
 * new-array execute functions, so any batch size shares the plan and any
 * split of a batch over cores computes every transform with the same plan
 * (the same bits). Measured here, a loop of single 1024-point transforms ran
 * as fast as FFTW's own batched plan (1.49 vs 1.48 ms for 1024 of them).
 *
 * Half and bfloat16 storage (the TRN_FFT_*_16F / _16BF types of
 * cufftXtMakePlanMany) computes in float, as cuFFT's half transforms do: a
 * variant is FFTW's float plan of one packed transform, out of place on
 * scratch, and each transform is gathered from its 16-bit layout into
 * float scratch (exact), transformed, and scattered back rounded to
 * nearest, ties to even (overflow to infinity, binary16 subnormals kept,
 * NaN stays NaN). Only a transform's own elements are read and written, so
 * padding and interleaved neighbours are untouched, and in place works
 * because a transform is gathered whole before it is written. The scratch
 * (two packed transforms of floats per shard) is allocated per op.
 *
 * Threading: planning (plan_build), destroying plans and wisdom I/O run on
 * the plan cache's planner thread only (FFTW's planner is not thread-safe);
 * executing different or identical plans on different arrays from the core
 * workers concurrently is safe, and a worker only reads variants the cache
 * reported built. Planning uses scratch arrays, never client memory
 * (FFTW_MEASURE overwrites the arrays it plans with). When the scratch
 * cannot be allocated the build reports TRN_KSTATUS_NO_MEMORY, which the
 * plan cache does not remember (the next op tries again). FFTW's planner
 * does not report its own allocation failures (it aborts); nothing here can
 * change that.
 */
#include <fftw3.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kernels/cpu/cpu_kernels.h"
#include "kernels/cpu/routines.h"
#include "ops/fft_shape.h"
#include "ops/fft_step.h"

typedef struct cpu_fft_plan {
    trn_fft_shape shape;
    trn_plan_effort effort;
    void *variant[TRN_FFT_VARIANTS]; /* fftwf_plan or fftw_plan, NULL until built */
    uint64_t bytes;
} cpu_fft_plan;

static unsigned fftw_flags(trn_plan_effort e) {
    return e == TRN_PLAN_ESTIMATE  ? FFTW_ESTIMATE
           : e == TRN_PLAN_PATIENT ? FFTW_PATIENT
                                   : FFTW_MEASURE;
}

void *trn_cpu_fft_plan_create(const trn_plan_spec *spec, trn_kstatus *why, char *err,
                              size_t errlen) {
    *why = TRN_KSTATUS_FAILED;
    if (spec->family != TRN_PLAN_FFT) {
        snprintf(err, errlen, "the cpu backend has no plans of family %d", (int)spec->family);
        return NULL;
    }
    if (trn_fft_shape_check(&spec->u.fft, err, errlen) != 0)
        return NULL;
    cpu_fft_plan *p = calloc(1, sizeof(*p));
    if (!p) {
        snprintf(err, errlen, "daemon out of memory for an FFT plan");
        *why = TRN_KSTATUS_NO_MEMORY;
        return NULL;
    }
    p->shape = spec->u.fft;
    p->effort = spec->effort;
    return p;
}

/* FFTW's arguments for one side: sizes as FFTW wants them (the logical
 * transform sizes n, not this side's), embed with embed[0] filled in. */
typedef struct fftw_side {
    int embed[TRN_FFT_MAX_RANK];
    int stride;
    size_t bytes; /* scratch for one transform */
} fftw_side;

static void side_args(const trn_fft_side *s, fftw_side *f) {
    memcpy(f->embed, s->embed, sizeof(f->embed));
    f->stride = s->stride;
    f->bytes = (size_t)trn_fft_span(s) * trn_fft_elem_size(s);
}

/* Makes the FFTW plan of variant v on scratch arrays. */
static void *plan_variant(const cpu_fft_plan *p, unsigned v, void *in, void *out,
                          const fftw_side *i, const fftw_side *o) {
    const trn_fft_shape *s = &p->shape;
    const int sign = (v & TRN_FFT_VARIANT_INVERSE) ? FFTW_BACKWARD : FFTW_FORWARD;
    unsigned flags = fftw_flags(p->effort);
    if ((v & TRN_FFT_VARIANT_UNALIGNED) && !trn_fft_type_half(s->type))
        flags |= FFTW_UNALIGNED;
    const int r = s->rank;
    const int *n = s->n;
    switch (s->type) {
    case TRN_FFT_C2C:
    case TRN_FFT_C2C_16F:
    case TRN_FFT_C2C_16BF:
        return TRN_LIB(fftwf_plan_many_dft)(r, n, 1, in, i->embed, i->stride, 0, out, o->embed,
                                            o->stride, 0, sign, flags);
    case TRN_FFT_R2C:
    case TRN_FFT_R2C_16F:
    case TRN_FFT_R2C_16BF:
        return TRN_LIB(fftwf_plan_many_dft_r2c)(r, n, 1, in, i->embed, i->stride, 0, out, o->embed,
                                                o->stride, 0, flags);
    case TRN_FFT_C2R:
    case TRN_FFT_C2R_16F:
    case TRN_FFT_C2R_16BF:
        return TRN_LIB(fftwf_plan_many_dft_c2r)(r, n, 1, in, i->embed, i->stride, 0, out, o->embed,
                                                o->stride, 0, flags);
    case TRN_FFT_Z2Z:
        return TRN_LIB(fftw_plan_many_dft)(r, n, 1, in, i->embed, i->stride, 0, out, o->embed,
                                           o->stride, 0, sign, flags);
    case TRN_FFT_D2Z:
        return TRN_LIB(fftw_plan_many_dft_r2c)(r, n, 1, in, i->embed, i->stride, 0, out, o->embed,
                                               o->stride, 0, flags);
    case TRN_FFT_Z2D:
        return TRN_LIB(fftw_plan_many_dft_c2r)(r, n, 1, in, i->embed, i->stride, 0, out, o->embed,
                                               o->stride, 0, flags);
    }
    return NULL;
}

/* Whether variant v exists for the plan's type: real transforms have one
 * direction. */
static int variant_valid(const trn_fft_shape *s, unsigned v) {
    const int inverse = (v & TRN_FFT_VARIANT_INVERSE) != 0;
    return trn_fft_type_c2c(s->type) || (trn_fft_type_c2r(s->type) ? inverse : !inverse);
}

/* The sides FFTW plans for: the shape's own, or for 16-bit storage one
 * packed transform of floats (the basic layout out of place). */
static void plan_sides(const trn_fft_shape *s, int inplace, trn_fft_side *in, trn_fft_side *out) {
    if (!trn_fft_type_half(s->type)) {
        trn_fft_sides(s, inplace, in, out);
        return;
    }
    trn_fft_shape packed = *s;
    packed.basic = 1;
    trn_fft_sides(&packed, 0, in, out);
    in->half = out->half = TRN_FFT_HALF_NONE;
}

trn_kstatus trn_cpu_fft_plan_build(void *plan, unsigned v, char *err, size_t errlen) {
    cpu_fft_plan *p = plan;
    if (v >= TRN_FFT_VARIANTS || !variant_valid(&p->shape, v)) {
        snprintf(err, errlen, "variant %u does not exist for this plan", v);
        return TRN_KSTATUS_FAILED;
    }
    if (p->variant[v])
        return TRN_KSTATUS_OK;
    trn_fft_side is, os;
    /* 16-bit storage: every variant transforms float scratch out of place. */
    const int inplace = (v & TRN_FFT_VARIANT_INPLACE) != 0 && !trn_fft_type_half(p->shape.type);
    plan_sides(&p->shape, inplace, &is, &os);
    fftw_side i, o;
    side_args(&is, &i);
    side_args(&os, &o);
    /* Scratch: one array in place (the larger side), two otherwise. */
    const size_t in_bytes = inplace && o.bytes > i.bytes ? o.bytes : i.bytes;
    void *in = fftw_malloc(in_bytes), *out = inplace ? in : fftw_malloc(o.bytes);
    if (!in || !out) {
        /* Not this shape's fault: the cache builds it again when next used. */
        snprintf(err, errlen,
                 "the daemon is out of memory for its workspace: %zu bytes of scratch to plan "
                 "this %s transform could not be allocated",
                 in_bytes + (inplace ? 0 : o.bytes), trn_fft_type_name(p->shape.type));
        fftw_free(in);
        if (!inplace)
            fftw_free(out);
        return TRN_KSTATUS_NO_MEMORY;
    }
    memset(in, 0, in_bytes);
    p->variant[v] = plan_variant(p, v, in, out, &i, &o);
    fftw_free(in);
    if (!inplace)
        fftw_free(out);
    if (!p->variant[v]) {
        snprintf(err, errlen, "FFTW cannot plan this %s layout (%s, %s)",
                 trn_fft_type_name(p->shape.type), inplace ? "in place" : "out of place",
                 (v & TRN_FFT_VARIANT_INVERSE) ? "inverse" : "forward");
        return TRN_KSTATUS_FAILED;
    }
    /* FFTW does not report a plan's memory; twiddle factors and buffers are
     * of the order of one transform's data. */
    p->bytes += (uint64_t)(i.bytes > o.bytes ? i.bytes : o.bytes);
    return TRN_KSTATUS_OK;
}

uint64_t trn_cpu_fft_plan_bytes(const void *plan) {
    return ((const cpu_fft_plan *)plan)->bytes + sizeof(cpu_fft_plan);
}

void trn_cpu_fft_plan_release(void *plan) {
    cpu_fft_plan *p = plan;
    if (!p)
        return;
    for (unsigned v = 0; v < TRN_FFT_VARIANTS; v++) {
        if (!p->variant[v])
            continue;
        if (trn_fft_type_double(p->shape.type))
            fftw_destroy_plan(p->variant[v]);
        else
            fftwf_destroy_plan(p->variant[v]);
    }
    free(p);
}

/* ---- wisdom ------------------------------------------------------------------ */

static int wisdom_path(char *buf, size_t len, const char *dir, int dbl) {
    const int n = snprintf(buf, len, "%s/fftw%s.wisdom", dir, dbl ? "" : "f");
    return n > 0 && (size_t)n < len ? 0 : -1;
}

int trn_cpu_fft_wisdom_load(const char *dir, char *err, size_t errlen) {
    int rc = 0;
    for (int dbl = 0; dbl < 2; dbl++) {
        char path[4096];
        if (wisdom_path(path, sizeof(path), dir, dbl) != 0)
            continue;
        FILE *f = fopen(path, "r");
        if (!f) {
            if (errno != ENOENT) {
                snprintf(err, errlen, "%s: %s", path, strerror(errno));
                rc = -1;
            }
            continue;
        }
        const int ok = dbl ? fftw_import_wisdom_from_file(f) : fftwf_import_wisdom_from_file(f);
        fclose(f);
        if (!ok) {
            snprintf(err, errlen, "%s is not FFTW wisdom this FFTW accepts: ignored", path);
            rc = -1;
        }
    }
    return rc;
}

/* Text: the double-precision wisdom, a record separator line, the single-
 * precision wisdom. FFTW's export allocates with malloc (its docs say to
 * free it with free()). */
#define WISDOM_SEPARATOR "\n\x1e\n"

char *trn_cpu_fft_wisdom_export(void) {
    char *d = fftw_export_wisdom_to_string();
    char *f = fftwf_export_wisdom_to_string();
    char *out = NULL;
    if (d && f) {
        const size_t nd = strlen(d), ns = strlen(WISDOM_SEPARATOR), nf = strlen(f);
        out = malloc(nd + ns + nf + 1);
        if (out) {
            memcpy(out, d, nd);
            memcpy(out + nd, WISDOM_SEPARATOR, ns);
            memcpy(out + nd + ns, f, nf + 1);
        }
    }
    free(d);
    free(f);
    return out;
}

int trn_cpu_fft_wisdom_import(char *text) {
    char *sep = strstr(text, WISDOM_SEPARATOR);
    if (!sep)
        return -1;
    *sep = '\0';
    const int ok = fftw_import_wisdom_from_string(text) &&
                   fftwf_import_wisdom_from_string(sep + strlen(WISDOM_SEPARATOR));
    *sep = '\n';
    return ok ? 0 : -1;
}

int trn_cpu_fft_wisdom_save(const char *dir, char *err, size_t errlen) {
    for (int dbl = 0; dbl < 2; dbl++) {
        char path[4096], tmp[4200];
        if (wisdom_path(path, sizeof(path), dir, dbl) != 0)
            return -1;
        snprintf(tmp, sizeof(tmp), "%s.tmp", path);
        FILE *f = fopen(tmp, "w");
        if (!f) {
            snprintf(err, errlen, "%s: %s", tmp, strerror(errno));
            return -1;
        }
        if (dbl)
            fftw_export_wisdom_to_file(f);
        else
            fftwf_export_wisdom_to_file(f);
        /* Written completely or not at all: a crash leaves the old file. */
        if (fclose(f) != 0 || rename(tmp, path) != 0) {
            snprintf(err, errlen, "%s: %s", path, strerror(errno));
            remove(tmp);
            return -1;
        }
    }
    return 0;
}

/* ---- 16-bit storage --------------------------------------------------------------- */

static float bits_float(uint32_t u) {
    float f;
    memcpy(&f, &u, sizeof(f));
    return f;
}

static uint32_t float_bits(float f) {
    uint32_t u;
    memcpy(&u, &f, sizeof(u));
    return u;
}

/* IEEE binary16 → float (exact). */
static float f16_to_float(uint16_t h) {
    const uint32_t sign = (uint32_t)(h & 0x8000u) << 16, e = (h >> 10) & 0x1fu, m = h & 0x3ffu;
    if (e == 0) { /* zero or subnormal: m · 2^-24 */
        const float v = (float)m * 0x1p-24f;
        return sign ? -v : v;
    }
    if (e == 31) /* infinity or NaN */
        return bits_float(sign | 0x7f800000u | (m << 13));
    return bits_float(sign | ((e + 112u) << 23) | (m << 13));
}

/* float → IEEE binary16, round to nearest, ties to even: 65520 and up is
 * infinite, below 2^-14 the quantum is binary16's subnormal 2^-24, NaN stays
 * a (quiet) NaN. */
static uint16_t float_to_f16(float f) {
    const uint32_t x = float_bits(f), sign = (x >> 16) & 0x8000u, ax = x & 0x7fffffffu;
    if (ax > 0x7f800000u)
        return (uint16_t)(sign | 0x7e00u);
    if (ax >= 0x477ff000u) /* 65520: halfway to 2^16, rounds to the even infinity */
        return (uint16_t)(sign | 0x7c00u);
    if (ax < 0x38800000u) /* below 2^-14: multiples of 2^-24 (x · 2^24 is exact) */
        return (uint16_t)(sign | (uint32_t)nearbyintf(bits_float(ax) * 0x1p24f));
    uint32_t r = ax - 0x38000000u; /* rebias the exponent: 127 - 15 = 112 */
    r += 0xfffu + ((r >> 13) & 1u);
    return (uint16_t)(sign | (r >> 13));
}

static float bf16_to_float(uint16_t h) {
    return bits_float((uint32_t)h << 16);
}

/* float → bfloat16, round to nearest, ties to even (overflow to infinity by
 * the carry into the exponent); NaN stays a quiet NaN. */
static uint16_t float_to_bf16(float f) {
    const uint32_t x = float_bits(f);
    if ((x & 0x7fffffffu) > 0x7f800000u)
        return (uint16_t)((x >> 16) | 0x40u);
    return (uint16_t)((x + 0x7fffu + ((x >> 16) & 1u)) >> 16);
}

/* Sizes and storage embeds of a side as three dimensions (leading 1s). */
static void dims3(const trn_fft_side *s, size_t m[3], size_t e[3]) {
    const int off = 3 - s->rank;
    for (int d = 0; d < 3; d++)
        m[d] = e[d] = 1;
    for (int d = 0; d < s->rank; d++) {
        m[off + d] = (size_t)s->n[d];
        e[off + d] = (size_t)s->embed[d];
    }
}

/* One transform's elements from 16-bit storage at src into packed floats. */
static void gather16(const uint16_t *src, const trn_fft_side *s, float *dst) {
    size_t m[3], e[3], k = 0;
    dims3(s, m, e);
    const size_t c = s->cplx ? 2 : 1, step = (size_t)s->stride * c;
    const int bf = s->half == TRN_FFT_HALF_16BF;
    for (size_t i0 = 0; i0 < m[0]; i0++)
        for (size_t i1 = 0; i1 < m[1]; i1++) {
            const uint16_t *q = src + (i0 * e[1] + i1) * e[2] * step;
            for (size_t i2 = 0; i2 < m[2]; i2++, q += step)
                for (size_t j = 0; j < c; j++)
                    dst[k++] = bf ? bf16_to_float(q[j]) : f16_to_float(q[j]);
        }
}

/* Packed floats rounded into one transform's elements of 16-bit storage. */
static void scatter16(const float *src, const trn_fft_side *s, uint16_t *dst) {
    size_t m[3], e[3], k = 0;
    dims3(s, m, e);
    const size_t c = s->cplx ? 2 : 1, step = (size_t)s->stride * c;
    const int bf = s->half == TRN_FFT_HALF_16BF;
    for (size_t i0 = 0; i0 < m[0]; i0++)
        for (size_t i1 = 0; i1 < m[1]; i1++) {
            uint16_t *q = dst + (i0 * e[1] + i1) * e[2] * step;
            for (size_t i2 = 0; i2 < m[2]; i2++, q += step)
                for (size_t j = 0; j < c; j++, k++)
                    q[j] = bf ? float_to_bf16(src[k]) : float_to_f16(src[k]);
        }
}

/* Transforms [lo, hi) of a 16-bit op through float scratch. */
static trn_kstatus fft16(const trn_fft_desc *d, const cpu_fft_plan *p, void *v, trn_kmsg *msg,
                         int shard, size_t lo, size_t hi) {
    trn_fft_side is, os;
    trn_fft_sides(&p->shape, (d->variant & TRN_FFT_VARIANT_INPLACE) != 0, &is, &os);
    size_t ni = is.cplx ? 2 : 1, no = os.cplx ? 2 : 1;
    for (int k = 0; k < is.rank; k++) {
        ni *= (size_t)is.n[k];
        no *= (size_t)os.n[k];
    }
    float *a = fftwf_malloc(ni * sizeof(float)), *b = fftwf_malloc(no * sizeof(float));
    if (!a || !b) {
        fftwf_free(a);
        fftwf_free(b);
        return trn_kmsg_no_memory(msg, shard, (ni + no) * sizeof(float),
                                  "the float copy of a %s transform",
                                  trn_fft_type_name(p->shape.type));
    }
    const size_t ic = is.cplx ? 2 : 1, oc = os.cplx ? 2 : 1;
    for (size_t t = lo; t < hi; t++) {
        gather16((const uint16_t *)d->in + t * d->idist * ic, &is, a);
        if (trn_fft_type_c2c(d->type))
            fftwf_execute_dft(v, (fftwf_complex *)a, (fftwf_complex *)b);
        else if (trn_fft_type_c2r(d->type))
            fftwf_execute_dft_c2r(v, (fftwf_complex *)a, b);
        else
            fftwf_execute_dft_r2c(v, a, (fftwf_complex *)b);
        scatter16(b, &os, (uint16_t *)d->out + t * d->odist * oc);
    }
    fftwf_free(a);
    fftwf_free(b);
    return TRN_KSTATUS_OK;
}

/* ---- execution ----------------------------------------------------------------- */

trn_kstatus trn_cpu_fft(const trn_fft_desc *d, trn_kmsg *msg, int shard, int nshards) {
    const cpu_fft_plan *p = d->plan;
    if (d->fftstep_kind == TRN_FFTSTEP_R2C_POST || d->fftstep_kind == TRN_FFTSTEP_C2R_PRE)
        /* steps with no plan (fft_step.c) */
        return trn_cpu_fft_step(d, NULL, msg, shard, nshards);
    void *const v = p->variant[d->variant];
    if (!v)
        return TRN_KSTATUS_FAILED; /* the scheduler runs an op only once its variant is built */
    if (d->fftstep_kind != 0)      /* a step of one large transform (fft_step.c) */
        return trn_cpu_fft_step(d, v, msg, shard, nshards);
    size_t lo, hi;
    trn_cpu_shard_range(d->batch, shard, nshards, &lo, &hi);
    if (trn_fft_type_half(d->type))
        return fft16(d, p, v, msg, shard, lo, hi);
    for (size_t b = lo; b < hi; b++) {
        const size_t io = b * d->idist, oo = b * d->odist;
        switch (d->type) {
        case TRN_FFT_C2C:
            fftwf_execute_dft(v, (fftwf_complex *)d->in + io, (fftwf_complex *)d->out + oo);
            break;
        case TRN_FFT_R2C:
            fftwf_execute_dft_r2c(v, (float *)d->in + io, (fftwf_complex *)d->out + oo);
            break;
        case TRN_FFT_C2R:
            fftwf_execute_dft_c2r(v, (fftwf_complex *)d->in + io, (float *)d->out + oo);
            break;
        case TRN_FFT_Z2Z:
            fftw_execute_dft(v, (fftw_complex *)d->in + io, (fftw_complex *)d->out + oo);
            break;
        case TRN_FFT_D2Z:
            fftw_execute_dft_r2c(v, (double *)d->in + io, (fftw_complex *)d->out + oo);
            break;
        case TRN_FFT_Z2D:
            fftw_execute_dft_c2r(v, (fftw_complex *)d->in + io, (double *)d->out + oo);
            break;
        default: return TRN_KSTATUS_FAILED; /* 16-bit storage: fft16 */
        }
    }
    return TRN_KSTATUS_OK;
}

/* The backend's entries (cpu_kernels.h). */
TRN_CPU_ENTRY(fft, trn_cpu_fft(&op->u.fft, op->kmsg, shard, nshards))
