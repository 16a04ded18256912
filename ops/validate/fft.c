/*
 * fft.c — argument rules of trnfft: a plan's shape and layout
 * (cufftPlanMany's), and an Exec of one of the session's plans.
 *
 * Beyond cuFFT's own rules, two memory-safety rules cuFFT leaves to the
 * caller: every transform of the batch lies inside the buffer given, and the
 * transforms of a batch that the kernel writes (the output; the input of a
 * C2R/Z2D, which FFTW overwrites; both sides in place) never overlap one
 * another — the batch is split over cores, so overlapping transforms would
 * race. A layout passes that rule when its transforms are whole blocks apart
 * (dist >= span) or interleaved (batch * dist <= stride).
 */
#include <stdio.h>
#include <string.h>

#include "ops/fft_shape.h"
#include "ops/validate/checked.h"
#include "ops/validate/validate.h"

static int type_of(Trnsci__V1__FftType t, trn_fft_type *out) {
    if (t < TRNSCI__V1__FFT_TYPE__FFT_C2C || t > TRNSCI__V1__FFT_TYPE__FFT_C2R_16BF)
        return -1;
    *out = (trn_fft_type)t; /* the wire's numbering is trn_fft_type's */
    return 0;
}

static trn_wire_code int_arg(trn_vctx *vx, int64_t v, int min, const char *what, int *out) {
    if (v < min || v > 0x7fffffff) {
        trn_vmsg(vx, "%s = %lld must be %d..2147483647", what, (long long)v, min);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    *out = (int)v;
    return TRN_WIRE_OK;
}

/* Bytes of `batch` transforms of a side `dist` elements apart. */
static int side_bytes(const trn_fft_side *side, uint64_t batch, uint64_t dist, uint64_t *out) {
    uint64_t t;
    return ck_mul(batch - 1, dist, &t) || ck_add(t, trn_fft_span(side), &t) ||
           ck_mul(t, trn_fft_elem_size(side), out);
}

trn_wire_code trn_vfft_plan(const Trnsci__V1__FftPlanSpec *w, trn_plan_spec *spec, trn_fft_batch *h,
                            char *err, size_t errlen) {
    trn_vctx messages = {.err = err, .errlen = errlen}, *vx = &messages;
    char what[48];
    memset(spec, 0, sizeof(*spec));
    spec->family = TRN_PLAN_FFT;
    trn_fft_shape *s = &spec->u.fft;
    if (!w) {
        trn_vmsg(vx, "PlanCreate: no plan spec given");
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    if (type_of(w->type, &s->type)) {
        trn_vmsg(vx, "fft plan: type %d is not an FFT type", (int)w->type);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    if (w->n_n < 1 || w->n_n > TRN_FFT_MAX_RANK) {
        trn_vmsg(vx, "fft plan: rank %zu must be 1, 2 or 3", w->n_n);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    s->rank = (int)w->n_n;
    for (int d = 0; d < s->rank; d++) {
        snprintf(what, sizeof(what), "fft plan: n[%d]", d);
        if (int_arg(vx, w->n[d], 1, what, &s->n[d]))
            return TRN_WIRE_INVALID_ARGUMENT;
    }
    int batch;
    if (int_arg(vx, w->batch, 1, "fft plan: batch", &batch))
        return TRN_WIRE_INVALID_ARGUMENT;
    h->batch = (uint64_t)batch;
    s->basic = w->n_inembed == 0 && w->n_onembed == 0;
    if (!s->basic) {
        if (w->n_inembed != w->n_n || w->n_onembed != w->n_n) {
            trn_vmsg(vx,
                     "fft plan: inembed and onembed must both be given with rank = %d entries, "
                     "or both be empty (got %zu and %zu)",
                     s->rank, w->n_inembed, w->n_onembed);
            return TRN_WIRE_INVALID_ARGUMENT;
        }
        for (int d = 0; d < s->rank; d++) {
            snprintf(what, sizeof(what), "fft plan: inembed[%d]", d);
            if (d > 0 && int_arg(vx, w->inembed[d], 1, what, &s->inembed[d]))
                return TRN_WIRE_INVALID_ARGUMENT;
            snprintf(what, sizeof(what), "fft plan: onembed[%d]", d);
            if (d > 0 && int_arg(vx, w->onembed[d], 1, what, &s->onembed[d]))
                return TRN_WIRE_INVALID_ARGUMENT;
        }
        if (int_arg(vx, w->istride, 1, "fft plan: istride", &s->istride) ||
            int_arg(vx, w->ostride, 1, "fft plan: ostride", &s->ostride))
            return TRN_WIRE_INVALID_ARGUMENT;
        int idist = 1, odist = 1; /* not used by a batch of one */
        if (batch > 1 && (int_arg(vx, w->idist, 1, "fft plan: idist", &idist) ||
                          int_arg(vx, w->odist, 1, "fft plan: odist", &odist)))
            return TRN_WIRE_INVALID_ARGUMENT;
        h->idist = (uint64_t)idist;
        h->odist = (uint64_t)odist;
    }
    char why[200];
    if (trn_fft_shape_check(s, why, sizeof(why)) != 0) {
        trn_vmsg(vx, "fft plan: %s", why);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    /* The whole batch must be addressable, in place or not. */
    for (int inplace = 0; inplace < 2; inplace++) {
        trn_fft_side in, out;
        trn_fft_sides(s, inplace, &in, &out);
        uint64_t b;
        if (side_bytes(&in, h->batch, s->basic ? trn_fft_block(&in) : h->idist, &b) ||
            b > INT64_MAX ||
            side_bytes(&out, h->batch, s->basic ? trn_fft_block(&out) : h->odist, &b) ||
            b > INT64_MAX) {
            trn_vmsg(vx, "fft plan: a batch of %llu transforms spans more than 2^63 bytes",
                     (unsigned long long)h->batch);
            return TRN_WIRE_INVALID_ARGUMENT;
        }
    }
    return TRN_WIRE_OK;
}

/* Transforms of a side written by the kernel must not overlap. */
static int disjoint(const trn_fft_side *side, uint64_t batch, uint64_t dist) {
    uint64_t t;
    return batch <= 1 || dist >= trn_fft_span(side) ||
           (!ck_mul(batch, dist, &t) && t <= (uint64_t)side->stride);
}

static int same_ref(const Trnsci__V1__BufferRef *a, const Trnsci__V1__BufferRef *b) {
    return (a ? a->buffer_id : 0) == (b ? b->buffer_id : 0) &&
           (a ? a->offset : 0) == (b ? b->offset : 0);
}

static trn_wire_code validate_fft(trn_vctx *vx, const Trnsci__V1__FftExecOp *f, trn_fft_desc *out) {
    trn_vplan h;
    if (trn_vplan_get(vx, f->plan_id, &h) != 0) {
        trn_vmsg(vx, "fft exec: plan %u does not exist in this session", f->plan_id);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    const trn_fft_shape *shape = &h.spec->u.fft;
    trn_fft_type type;
    if (type_of(f->type, &type) || type != shape->type) {
        trn_vmsg(vx, "fft exec: plan %u is a %s plan, not %s", f->plan_id,
                 trn_fft_type_name(shape->type),
                 type_of(f->type, &type) ? "an FFT type" : trn_fft_type_name(type));
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    const int complex = trn_fft_type_c2c(type);
    if (complex && f->direction != -1 && f->direction != 1) {
        trn_vmsg(vx, "fft exec: direction %d must be -1 (forward) or 1 (inverse)", f->direction);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    const int inverse = complex ? f->direction == 1 : trn_fft_type_c2r(type);
    const int inplace = same_ref(f->idata, f->odata);
    trn_fft_side in, o;
    trn_fft_sides(shape, inplace, &in, &o);
    const uint64_t idist = shape->basic ? trn_fft_block(&in) : h.fft.idist;
    const uint64_t odist = shape->basic ? trn_fft_block(&o) : h.fft.odist;
    const int input_written = inplace || !trn_fft_out_complex(type);
    if (!disjoint(&o, h.fft.batch, odist) ||
        (input_written && !disjoint(&in, h.fft.batch, idist))) {
        trn_vmsg(vx,
                 "fft exec: the %s of the batch's transforms overlap one another (dist %llu, "
                 "one transform spans %llu elements)",
                 disjoint(&o, h.fft.batch, odist) ? "inputs" : "outputs",
                 (unsigned long long)(disjoint(&o, h.fft.batch, odist) ? idist : odist),
                 (unsigned long long)trn_fft_span(disjoint(&o, h.fft.batch, odist) ? &in : &o));
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    uint64_t ib, ob;
    if (side_bytes(&in, h.fft.batch, idist, &ib) || side_bytes(&o, h.fft.batch, odist, &ob)) {
        trn_vmsg(vx, "fft exec: the batch's extent overflows");
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    void *ip, *op;
    const uint64_t ia = trn_fft_elem_size(&in), oa = trn_fft_elem_size(&o);
    trn_wire_code rc;
    if (inplace) { /* one region holding both sides */
        rc = trn_vregion(vx, f->idata, ib > ob ? ib : ob, ia > oa ? ia : oa,
                         "fft exec: idata (= odata)", &ip);
        op = ip;
    } else {
        rc = trn_vregion(vx, f->idata, ib, ia, "fft exec: idata", &ip);
        if (rc == TRN_WIRE_OK)
            rc = trn_vregion(vx, f->odata, ob, oa, "fft exec: odata", &op);
        if (rc == TRN_WIRE_OK && (char *)ip < (char *)op + ob && (char *)op < (char *)ip + ib) {
            trn_vmsg(vx, "fft exec: idata and odata overlap without being equal (in place needs "
                         "idata == odata)");
            rc = TRN_WIRE_INVALID_ARGUMENT;
        }
    }
    if (rc != TRN_WIRE_OK)
        return rc;
    const int unaligned =
        (uintptr_t)ip % TRN_FFT_ALIGN || (uintptr_t)op % TRN_FFT_ALIGN ||
        (h.fft.batch > 1 && ((idist * ia) % TRN_FFT_ALIGN || (odist * oa) % TRN_FFT_ALIGN));
    out->plan = h.plan;
    out->type = type;
    out->variant = (inverse ? TRN_FFT_VARIANT_INVERSE : 0) |
                   (inplace ? TRN_FFT_VARIANT_INPLACE : 0) |
                   (unaligned ? TRN_FFT_VARIANT_UNALIGNED : 0);
    out->in = ip;
    out->out = op;
    out->batch = (size_t)h.fft.batch;
    out->idist = (size_t)idist;
    out->odist = (size_t)odist;
    out->points = trn_fft_points(shape);
    /* A whole op; the daemon may cut it into steps (ops/fft_step.h). */
    out->fftstep_kind = 0;
    out->fftstep_rows = out->fftstep_cols = out->fftstep_block = 0;
    vx->refs->plan_part = out->variant;
    return TRN_WIRE_OK;
}

/* The table's entries (validate.h). */
TRN_VALIDATE_ENTRY(fft, validate_fft(vx, op->fft_exec, &out->u.fft))
