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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kernels/cpu/cpu_kernels.h"
#include "kernels/cpu/routines.h"
#include "ops/fft_shape.h"

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
    if (v & TRN_FFT_VARIANT_UNALIGNED)
        flags |= FFTW_UNALIGNED;
    const int r = s->rank;
    const int *n = s->n;
    switch (s->type) {
    case TRN_FFT_C2C:
        return TRN_LIB(fftwf_plan_many_dft)(r, n, 1, in, i->embed, i->stride, 0, out, o->embed,
                                            o->stride, 0, sign, flags);
    case TRN_FFT_R2C:
        return TRN_LIB(fftwf_plan_many_dft_r2c)(r, n, 1, in, i->embed, i->stride, 0, out, o->embed,
                                                o->stride, 0, flags);
    case TRN_FFT_C2R:
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
    switch (s->type) {
    case TRN_FFT_C2C:
    case TRN_FFT_Z2Z: return 1;
    case TRN_FFT_R2C:
    case TRN_FFT_D2Z: return !inverse;
    case TRN_FFT_C2R:
    case TRN_FFT_Z2D: return inverse;
    }
    return 0;
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
    const int inplace = (v & TRN_FFT_VARIANT_INPLACE) != 0;
    trn_fft_sides(&p->shape, inplace, &is, &os);
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

/* ---- execution ----------------------------------------------------------------- */

trn_kstatus trn_cpu_fft(const trn_fft_desc *d, int shard, int nshards) {
    const cpu_fft_plan *p = d->plan;
    void *const v = p->variant[d->variant];
    if (!v)
        return TRN_KSTATUS_FAILED; /* the scheduler runs an op only once its variant is built */
    size_t lo, hi;
    trn_cpu_shard_range(d->batch, shard, nshards, &lo, &hi);
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
        }
    }
    return TRN_KSTATUS_OK;
}

/* The backend's entries (cpu_kernels.h). */
TRN_CPU_ENTRY(fft, trn_cpu_fft(&op->u.fft, shard, nshards))
