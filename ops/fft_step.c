/*
 * fft_step.c — the steps and tasks of a single large FFT run on every core
 * (ops/fft_step.h). Pure functions of the shape and the descriptors.
 */
#include "ops/fft_step.h"

#include <math.h>
#include <stdint.h>

/* Whether t is R2C or D2Z (real input, 2D/3D only). */
static int real_to_complex(trn_fft_type t) {
    return t == TRN_FFT_R2C || t == TRN_FFT_D2Z;
}

/* Whether t is C2R or Z2D (complex Hermitian half to real). */
static int complex_to_real(trn_fft_type t) {
    return t == TRN_FFT_C2R || t == TRN_FFT_Z2D;
}

/* Bytes of one complex element of a C2C/R2C/C2R (8) or Z2Z/D2Z/Z2D (16)
 * transform's complex side. */
static size_t elem_bytes(trn_fft_type t) {
    return t == TRN_FFT_Z2Z || t == TRN_FFT_D2Z || t == TRN_FFT_Z2D ? 16 : 8;
}

/* Whether the layout is the basic one, or an advanced one equal to it
 * (embeds the logical sizes, strides 1). */
static int basic_layout(const trn_fft_shape *s) {
    if (s->basic)
        return 1;
    if (s->istride != 1 || s->ostride != 1)
        return 0;
    for (int d = 1; d < s->rank; d++)
        if (s->inembed[d] != s->n[d] || s->onembed[d] != s->n[d])
            return 0;
    return 1;
}

int trn_fftstep_factor(int n) {
    int best = 1;
    for (int a = 2; (long long)a * a <= n; a++)
        if (n % a == 0)
            best = a;
    return best;
}

/* The outer dimension and the inner points of a 2D/3D shape. */
static void outer_inner(const trn_fft_shape *s, int *outer, long long *inner) {
    *outer = s->n[0];
    *inner = 1;
    for (int d = 1; d < s->rank; d++)
        *inner *= s->n[d];
}

int trn_fftstep_count(const trn_fft_shape *s, size_t batch, unsigned variant) {
    const int cplx = s->type == TRN_FFT_C2C || s->type == TRN_FFT_Z2Z;
    const int c2r = complex_to_real(s->type);
    if (batch != 1 || !(cplx || c2r || real_to_complex(s->type)) || !basic_layout(s))
        return 0;
    /* 1D in place (complex or real): the columns go through a scratch
     * array (below). 2D/3D in place: each slab's padded real rows and its
     * Hermitian half are the same bytes, and the pencils run on the
     * complex side, contiguous in place. */
    double points = 1.0;
    for (int d = 0; d < s->rank; d++)
        points *= s->n[d];
    if (points < (double)TRN_FFTSTEP_MIN_POINTS || points > (double)INT32_MAX)
        return 0;
    if (s->rank == 1 && !cplx) /* a complex transform of n / 2, and a post or pre step */
        return s->n[0] % 2 == 0 && trn_fftstep_factor(s->n[0] / 2) >= TRN_FFTSTEP_MIN_FACTOR &&
                       trn_fftstep_scratch_bytes(s, variant) <= TRN_FFTSTEP_MAX_SCRATCH
                   ? 3
                   : 0;
    if (s->rank == 1)
        return trn_fftstep_factor(s->n[0]) >= TRN_FFTSTEP_MIN_FACTOR &&
                       trn_fftstep_scratch_bytes(s, variant) <= TRN_FFTSTEP_MAX_SCRATCH
                   ? 2
                   : 0;
    int outer;
    long long inner;
    outer_inner(s, &outer, &inner);
    return outer >= TRN_FFTSTEP_MIN_FACTOR && inner >= TRN_FFTSTEP_MIN_FACTOR ? 2 : 0;
}

size_t trn_fftstep_scratch_bytes(const trn_fft_shape *s, unsigned variant) {
    if (s->rank != 1 || (variant & TRN_FFT_VARIANT_INPLACE) == 0)
        return 0;
    /* A real transform's complex one has n / 2 points. */
    const int real = real_to_complex(s->type) || complex_to_real(s->type);
    return (size_t)(real ? s->n[0] / 2 : s->n[0]) * elem_bytes(s->type);
}

/* Columns per COLS or PENCILS task: a power of two between 4 and 64 whose
 * gathered columns (rows elements each) fill about TRN_FFTSTEP_TILE_BYTES. */
static int column_block(int rows, trn_fft_type t) {
    const size_t col = (size_t)rows * elem_bytes(t);
    int b = 4;
    while (b < 64 && (size_t)(2 * b) * col <= TRN_FFTSTEP_TILE_BYTES)
        b *= 2;
    return b;
}

void trn_fftstep_step(const trn_fft_shape *s, const trn_fft_desc *whole, int step, void *scratch,
                      trn_fft_desc *d, trn_fft_shape *sub) {
    *d = *whole;
    d->plan = NULL;
    *sub = (trn_fft_shape){.type = s->type, .rank = 1, .basic = 1};
    d->idist = d->odist = 0; /* SLABS: the slab strides, set below */
    const unsigned inverse = whole->variant & TRN_FFT_VARIANT_INVERSE;
    /* COLS and PENCILS transform contiguous, aligned workspace in place. */
    d->variant = inverse | TRN_FFT_VARIANT_INPLACE;
    if (s->rank == 1 && (real_to_complex(s->type) || complex_to_real(s->type))) {
        /* The n reals as n / 2 complex numbers: their complex transform by
         * COLS and PENCILS (the complex type's), then R2C's post step, or
         * after C2R's pre step. */
        const int m = s->n[0] / 2, n1 = trn_fftstep_factor(m), n2 = m / n1;
        const trn_fft_type ct = elem_bytes(s->type) == 16 ? TRN_FFT_Z2Z : TRN_FFT_C2C;
        const int c2r = complex_to_real(s->type);
        /* In place, the columns go through the op's scratch array, as a
         * complex transform's. */
        void *mid = scratch ? scratch : whole->out;
        d->points = (double)s->n[0];
        sub->type = ct;
        if (step == (c2r ? 0 : 2)) {
            d->fftstep_kind = c2r ? TRN_FFTSTEP_C2R_PRE : TRN_FFTSTEP_R2C_POST;
            d->fftstep_rows = m;
            d->fftstep_cols = 1;
            d->fftstep_block = TRN_FFTSTEP_POST_BLOCK;
            if (c2r)
                d->out = (void *)d->in; /* in place on the input */
            else
                d->in = d->out;
            sub->rank = 0;
            return;
        }
        if (c2r)
            step--;
        d->type = ct;
        d->fftstep_kind = step == 0 ? TRN_FFTSTEP_COLS : TRN_FFTSTEP_PENCILS;
        d->fftstep_rows = step == 0 ? n1 : n2;
        d->fftstep_cols = step == 0 ? n2 : n1;
        if (step == 0)
            d->out = mid;
        else
            d->in = mid;
        sub->n[0] = d->fftstep_rows;
        d->fftstep_block = column_block(d->fftstep_rows, ct);
        return;
    }
    if (s->rank == 1) {
        const int n1 = trn_fftstep_factor(s->n[0]), n2 = s->n[0] / n1;
        /* In place, the columns go through the op's scratch array. */
        void *mid = scratch ? scratch : whole->out;
        if (step == 0) {
            d->fftstep_kind = TRN_FFTSTEP_COLS;
            d->fftstep_rows = n1;
            d->fftstep_cols = n2;
            d->out = mid;
        } else {
            d->fftstep_kind = TRN_FFTSTEP_PENCILS;
            d->fftstep_rows = n2;
            d->fftstep_cols = n1;
            d->in = mid;
        }
        sub->n[0] = d->fftstep_rows;
        d->fftstep_block = column_block(d->fftstep_rows, s->type);
        d->points = (double)s->n[0];
        return;
    }
    int outer;
    long long inner;
    outer_inner(s, &outer, &inner);
    const int real = real_to_complex(s->type), c2r = complex_to_real(s->type);
    const int last = s->n[s->rank - 1];
    /* The complex side's points per slab: a real transform's Hermitian half
     * keeps last / 2 + 1 of the last dimension. */
    const long long inner_half = real || c2r ? inner / last * (last / 2 + 1) : inner;
    d->fftstep_rows = outer;
    d->fftstep_cols = (int)inner_half;
    d->points = (double)outer * (double)inner;
    /* Slab strides (elements of the input's and the output's type). In
     * place, a real slab is padded to its Hermitian half's bytes (the last
     * dimension's rows hold 2 (last / 2 + 1) reals, cuFFT's in-place
     * layout). */
    const size_t real_slab =
        (size_t)(whole->variant & TRN_FFT_VARIANT_INPLACE ? 2 * inner_half : inner);
    d->idist = c2r ? (size_t)inner_half : real ? real_slab : (size_t)inner;
    d->odist = c2r ? real_slab : (size_t)inner_half;
    /* C2R/Z2D: the outer dimension's inverse FFTs first, in place on the
     * input (cuFFT's C2R may overwrite its input), then each slab's C2R from
     * the input to the output: the inverse of R2C's order. */
    if (step == (c2r ? 1 : 0)) {
        d->fftstep_kind = TRN_FFTSTEP_SLABS;
        sub->type = s->type;
        sub->rank = s->rank - 1;
        for (int k = 1; k < s->rank; k++)
            sub->n[k - 1] = s->n[k];
        /* The slabs of the client's arrays, transformed where they are. */
        const size_t ibytes = d->idist * (real ? elem_bytes(s->type) / 2 : elem_bytes(s->type));
        const size_t obytes = d->odist * (c2r ? elem_bytes(s->type) / 2 : elem_bytes(s->type));
        const int unaligned = (uintptr_t)d->in % TRN_FFT_ALIGN ||
                              (uintptr_t)d->out % TRN_FFT_ALIGN || ibytes % TRN_FFT_ALIGN ||
                              obytes % TRN_FFT_ALIGN;
        d->variant = inverse | (d->in == d->out ? TRN_FFT_VARIANT_INPLACE : 0) |
                     (unaligned ? TRN_FFT_VARIANT_UNALIGNED : 0);
        const long long per = ((long long)TRN_FFTSTEP_SLAB_POINTS + inner - 1) / inner;
        d->fftstep_block = (int)(per < outer ? per : outer);
    } else {
        /* The outer dimension's complex FFTs on the output (R2C's too), or
         * C2R's on the input. */
        d->fftstep_kind = TRN_FFTSTEP_PENCILS;
        if (c2r)
            d->out = (void *)d->in;
        else
            d->in = d->out;
        d->type = sub->type = elem_bytes(s->type) == 16 ? TRN_FFT_Z2Z : TRN_FFT_C2C;
        sub->n[0] = outer;
        d->fftstep_block = column_block(outer, s->type);
    }
}

/* What a step's tasks cut: columns, slabs, or R2C_POST's pairs. */
static size_t step_len(const trn_fft_desc *d) {
    switch (d->fftstep_kind) {
    case TRN_FFTSTEP_SLABS: return (size_t)d->fftstep_rows;
    case TRN_FFTSTEP_R2C_POST:
    case TRN_FFTSTEP_C2R_PRE: return (size_t)d->fftstep_rows / 2 + 1;
    default: return (size_t)d->fftstep_cols;
    }
}

size_t trn_fftstep_tasks(const trn_fft_desc *d) {
    const size_t b = d->fftstep_block > 0 ? (size_t)d->fftstep_block : 1;
    const size_t len = step_len(d);
    return (len + b - 1) / b;
}

void trn_fftstep_task(const trn_fft_desc *d, size_t t, size_t *lo, size_t *hi) {
    const size_t b = d->fftstep_block > 0 ? (size_t)d->fftstep_block : 1;
    const size_t len = step_len(d);
    *lo = t * b < len ? t * b : len;
    *hi = *lo + b < len ? *lo + b : len;
}

double trn_fftstep_flops(const trn_fft_desc *d) {
    const double r = d->fftstep_rows, c = d->fftstep_cols;
    switch (d->fftstep_kind) {
    case TRN_FFTSTEP_COLS: return 5.0 * r * c * log2(r) + 6.0 * r * c;
    case TRN_FFTSTEP_PENCILS: return 5.0 * r * c * log2(r);
    case TRN_FFTSTEP_SLABS: return 5.0 * r * c * log2(c);
    case TRN_FFTSTEP_R2C_POST:
    case TRN_FFTSTEP_C2R_PRE: return 10.0 * r;
    default: return 0.0;
    }
}
