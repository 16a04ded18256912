/*
 * check_fftw.c — the self-test's checks of FFTW's planners.
 *
 * A candidate planner is checked the way kernels/cpu/fft.c uses it: one
 * transform (howmany = 1, idist = odist = 0) planned on scratch arrays from
 * fftw_malloc that are freed right after planning, then executed once
 * through the new-array execute function (fftw[f]_execute_dft, _dft_r2c,
 * _dft_c2r) on other arrays, operands in guarded slots, and destroyed.
 * Operands of which one is not 16-byte aligned (TRN_FFT_ALIGN, the modulus
 * fftw_alignment_of uses) are planned with FFTW_UNALIGNED, the others with
 * the plain flags, as fft.c chooses. The placement cycles with the case
 * (check.c): page aligned, ending at a guard page (misaligned when the size
 * is not a multiple of 16 bytes), or one element past a guard page, where
 * a double complex operand sits 8 bytes past it (the daemon never makes
 * such a pointer, but it is the only way to reach z2z's FFTW_UNALIGNED
 * plans, and FFTW defines them for any array aligned to its reals).
 *
 * Shapes, for c2c/z2z (both signs), r2c/d2z and c2r/z2d, each in place and
 * out of place:
 *   1D: 1, 2, 3, 4, 5, 7, 8, 12, 16, 17, 31, 32, 64, 97 (prime), 128,
 *       243 = 3^5, 360, 1000, 1024 (odd and even last dimensions);
 *   2D: 6x10, 16x15; 3D: 3x4x5, 8x8x8;
 *   advanced layouts (strides 2 and 3, embeds beyond the sizes): 12, 15,
 *   6x10, 5x9, 3x4x5. In place, a c2c uses the input's layout on both sides
 *   and a real transform the complex side's embeds and stride, with the
 *   real side's last embed twice the complex one's (FFTW's in-place layout).
 * Planning is most of the time a check takes (about a millisecond a plan
 * from 243 points up, twice that in place), so from BIG points on a c2c
 * runs forward out of place and backward in place only, and 360 runs out
 * of place only (1000 = 2^3 5^3 meets its factors in place).
 * FFTW_ESTIMATE, and FFTW_MEASURE for 8, 12 and 16 (the check runs in a
 * throwaway child, so the wisdom it leaves does not matter).
 *
 * Reference: the DFT in long double, unnormalised as FFTW's,
 * y_k = sum_j x_j exp(-+2 pi i jk/n), one pass per dimension (separable),
 * with tables of cosl and sinl of 2 pi m/n, m < n, per dimension, indexed
 * by jk mod n. A backward c2c's reference is the forward one at the
 * negated indices. A c2r input is a random half-spectrum made exactly
 * Hermitian in the working precision: in the planes k_last = 0 and
 * k_last = n/2 (n even) the entry at -k' is the conjugate of the one at k',
 * and self-conjugate entries are real. The transform of such a spectrum is
 * real and every correct algorithm computes it, so nothing here relies on
 * how FFTW treats the redundant entries (the imaginary parts it ignores).
 * The reference's own error (twiddles to 2^-64, sums of at most 1024 terms
 * with a 64-bit mantissa) is negligible next to the bound.
 *
 * Bound, normwise over the whole output (an FFT spreads each rounding over
 * every element, so elementwise bounds are the wrong shape):
 *   ||y^ - y||_2 <= 5 (ceil(log2 N) + 1) u ||x||_2 sqrt(N),
 * N the number of points, ||x||_2 sqrt(N) = ||y||_2 the norm of the full
 * transform (for c2r, ||x|| is that of the full Hermitian spectrum). The
 * worst case of radix-2 Cooley-Tukey is log2(N) (4 sqrt(2) u + the
 * twiddles' error) relative to ||y|| (Higham, Accuracy and Stability of
 * Numerical Algorithms, Thm. 24.2), about 6 log2(N) u, reached only when
 * every rounding goes the same way; the errors add as a random walk, to
 * O(sqrt(log N) u), and FFTW's, with SIMD and without (FFTW_NO_SIMD),
 * primes (Rader, generic O(n^2) solvers) included, stay below 0.08 of this
 * bound on every case here. The +1 keeps N = 1 from a bound of 0. A wrong
 * element fails once it is off by the bound: about 3e-3, or 1e-4 of a
 * typical |y_k|, in float at N = 1024. A NaN or infinity anywhere in the
 * output fails (the output starts as NaN sentinels, so an element left
 * unwritten shows).
 *
 * Memory: bytes in no element of the layout (gaps between strided elements,
 * embedding padding) are unchanged; an out-of-place c2c or r2c leaves its
 * whole input unchanged (FFTW's default, FFTW_PRESERVE_INPUT); a c2r may
 * overwrite its input's elements (fft.c does not ask to preserve them), and
 * in place the input's elements that are not output elements (the padding
 * of real rows) may be written. A NULL plan for any of these layouts fails:
 * the daemon plans each of them.
 */
#include <fftw3.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/cpu/selftest/checks.h"

typedef enum kind { K_C2C, K_R2C, K_C2R } kind;

typedef struct entry {
    int id;
    kind k;
    int dbl;
    const char *name; /* fft_shape.h's type name */
} entry;

static const entry table[] = {
    {TRN_R_fftwf_plan_many_dft, K_C2C, 0, "c2c"},
    {TRN_R_fftwf_plan_many_dft_r2c, K_R2C, 0, "r2c"},
    {TRN_R_fftwf_plan_many_dft_c2r, K_C2R, 0, "c2r"},
    {TRN_R_fftw_plan_many_dft, K_C2C, 1, "z2z"},
    {TRN_R_fftw_plan_many_dft_r2c, K_R2C, 1, "d2z"},
    {TRN_R_fftw_plan_many_dft_c2r, K_C2R, 1, "z2d"},
};
#define NTABLE ((int)(sizeof(table) / sizeof(table[0])))

#define MAX_RANK 3

/* A transform: sizes, effort, and an advanced layout (pads added to each
 * side's logical sizes, pad[0] unused; strides) or the basic one. */
typedef struct shape {
    int rank, n[MAX_RANK];
    int measure;
    int adv;
    int ipad[MAX_RANK], istride, opad[MAX_RANK], ostride;
} shape;

/* 1D sizes; those of `measured` are planned with FFTW_MEASURE. */
static const int sizes[] = {1,  2,  3,  4,  5,   7,   8,   12,   16,  17,
                            31, 32, 64, 97, 128, 243, 360, 1000, 1024};
#define NSIZES ((int)(sizeof(sizes) / sizeof(sizes[0])))
static const int measured[] = {8, 12, 16};
/* Planned out of place only: an in-place plan of 360 points costs about 2 ms
 * to make, and 1000 = 2^3 5^3 meets its factors in place. */
static const int out_of_place_only[] = {360};

/* Multidimensional and advanced layouts. */
static const shape shapes[] = {
    {.rank = 2, .n = {6, 10}},
    {.rank = 2, .n = {16, 15}},
    {.rank = 3, .n = {3, 4, 5}},
    {.rank = 3, .n = {8, 8, 8}},
    {.rank = 1, .n = {12}, .adv = 1, .istride = 2, .ostride = 3},
    {.rank = 1, .n = {15}, .adv = 1, .istride = 3, .ostride = 2},
    {.rank = 2, .n = {6, 10}, .adv = 1, .ipad = {0, 3}, .istride = 2, .opad = {0, 1}, .ostride = 3},
    {.rank = 2, .n = {5, 9}, .adv = 1, .ipad = {0, 2}, .istride = 3, .opad = {0, 3}, .ostride = 2},
    {.rank = 3,
     .n = {3, 4, 5},
     .adv = 1,
     .ipad = {0, 1, 2},
     .istride = 2,
     .opad = {0, 2, 1},
     .ostride = 1},
};
#define NSHAPES ((int)(sizeof(shapes) / sizeof(shapes[0])))

/* From this many points on, c2c runs two of its four sign and placement
 * combinations (the top of the file). */
#define BIG 243

/* The bound's constant (see the top of the file). */
#define BOUND_C 5.0L

/* ---- layouts --------------------------------------------------------------------------- */

/* One side of a transform as FFTW is told it. */
typedef struct side {
    int rank;
    int n[MAX_RANK];     /* logical sizes (the last halved on a real transform's complex side) */
    int embed[MAX_RANK]; /* storage sizes; embed[0] = n[0], as fft.c passes it */
    int stride;          /* in elements of this side */
    int cx;
    st_type t;
    size_t es;
    size_t count; /* elements: the product of n */
    size_t span;  /* elements spanned: 1 + the offset of the last */
} side;

static void side_init(side *s, const shape *sh, int cx, int halved, int dbl) {
    memset(s, 0, sizeof(*s));
    s->rank = sh->rank;
    for (int d = 0; d < sh->rank; d++)
        s->n[d] = s->embed[d] = sh->n[d];
    if (halved)
        s->n[sh->rank - 1] = s->embed[sh->rank - 1] = sh->n[sh->rank - 1] / 2 + 1;
    s->stride = 1;
    s->cx = cx;
    s->t = dbl ? (cx ? ST_Z : ST_D) : (cx ? ST_C : ST_S);
    s->es = st_esize(s->t);
}

static void side_finish(side *s) {
    s->embed[0] = s->n[0];
    size_t off = 0, scale = 1;
    s->count = 1;
    for (int d = s->rank - 1; d >= 0; d--) {
        off += (size_t)(s->n[d] - 1) * scale;
        scale *= (size_t)s->embed[d];
        s->count *= (size_t)s->n[d];
    }
    s->span = 1 + off * (size_t)s->stride;
}

/* The two sides of transform sh of kind k, in place or not. */
static void make_sides(const entry *e, const shape *sh, int inplace, side *in, side *out) {
    const int last = sh->rank - 1;
    side_init(in, sh, e->k != K_R2C, e->k == K_C2R, e->dbl);
    side_init(out, sh, e->k != K_C2R, e->k == K_R2C, e->dbl);
    if (!sh->adv) {
        if (inplace && e->k != K_C2C) { /* real rows padded to hold the complex side */
            side *r = e->k == K_R2C ? in : out;
            r->embed[last] = 2 * (sh->n[last] / 2 + 1);
        }
    } else if (!inplace) {
        for (int d = 1; d < sh->rank; d++) {
            in->embed[d] += sh->ipad[d];
            out->embed[d] += sh->opad[d];
        }
        in->stride = sh->istride;
        out->stride = sh->ostride;
    } else if (e->k == K_C2C) {
        for (int d = 1; d < sh->rank; d++)
            in->embed[d] = out->embed[d] = in->n[d] + sh->ipad[d];
        in->stride = out->stride = sh->istride;
    } else {
        side *cs = e->k == K_R2C ? out : in, *rs = e->k == K_R2C ? in : out;
        const int *pad = e->k == K_R2C ? sh->opad : sh->ipad;
        const int stride = e->k == K_R2C ? sh->ostride : sh->istride;
        for (int d = 1; d < sh->rank; d++)
            cs->embed[d] = rs->embed[d] = cs->n[d] + pad[d];
        if (last > 0)
            rs->embed[last] = 2 * cs->embed[last];
        cs->stride = rs->stride = stride;
    }
    side_finish(in);
    side_finish(out);
}

/* The offset (in elements) of each element of s, in row-major order of its
 * logical indices. */
static size_t *side_offsets(st_check *c, const side *s) {
    int n[3] = {1, 1, 1}, e[3] = {1, 1, 1};
    for (int d = 0; d < s->rank; d++) {
        n[3 - s->rank + d] = s->n[d];
        e[3 - s->rank + d] = s->embed[d];
    }
    size_t *off = st_alloc(c, sizeof(size_t) * s->count);
    size_t k = 0;
    for (int i0 = 0; i0 < n[0]; i0++)
        for (int i1 = 0; i1 < n[1]; i1++)
            for (int i2 = 0; i2 < n[2]; i2++)
                off[k++] = (size_t)s->stride *
                           (((size_t)i0 * (size_t)e[1] + (size_t)i1) * (size_t)e[2] + (size_t)i2);
    return off;
}

/* "6x10", with the embeds of an advanced layout: "6x10 in=6x13:2 out=6x11:3". */
static void layout_text(char *buf, size_t len, const shape *sh, const side *in, const side *out) {
    size_t w = 0;
    for (int d = 0; d < sh->rank && w < len; d++)
        w += (size_t)snprintf(buf + w, len - w, d ? "x%d" : "%d", sh->n[d]);
    if (!sh->adv) {
        if (w < len)
            snprintf(buf + w, len - w, " basic");
        return;
    }
    const side *s[2] = {in, out};
    for (int i = 0; i < 2; i++) {
        if (w < len)
            w += (size_t)snprintf(buf + w, len - w, i ? " out=" : " in=");
        for (int d = 0; d < sh->rank && w < len; d++)
            w += (size_t)snprintf(buf + w, len - w, d ? "x%d" : "%d", s[i]->embed[d]);
        if (w < len)
            w += (size_t)snprintf(buf + w, len - w, ":%d", s[i]->stride);
    }
}

/* The index of a dense element's multi-index, each index negated mod n. */
static size_t negated(int rank, const int *n, size_t k) {
    size_t idx[MAX_RANK] = {0, 0, 0}, r = 0;
    for (int d = rank - 1; d >= 0; d--) {
        idx[d] = k % (size_t)n[d];
        k /= (size_t)n[d];
    }
    for (int d = 0; d < rank; d++)
        r = r * (size_t)n[d] + (idx[d] ? (size_t)n[d] - idx[d] : 0);
    return r;
}

/* "[5]" or "(1,2,3)". */
static void index_text(char *buf, size_t len, int rank, const int *n, size_t k) {
    size_t idx[MAX_RANK] = {0, 0, 0};
    for (int d = rank - 1; d >= 0; d--) {
        idx[d] = k % (size_t)n[d];
        k /= (size_t)n[d];
    }
    if (rank == 1)
        snprintf(buf, len, "[%zu]", idx[0]);
    else if (rank == 2)
        snprintf(buf, len, "(%zu,%zu)", idx[0], idx[1]);
    else
        snprintf(buf, len, "(%zu,%zu,%zu)", idx[0], idx[1], idx[2]);
}

/* ---- the reference ------------------------------------------------------------------- */

/* Memory that lives across the cases of a transform. */
static void *xalloc(size_t bytes) {
    void *p = calloc(1, bytes ? bytes : 1);
    if (!p)
        abort(); /* in the child: the parent reports the check as crashed */
    return p;
}

/* cos and sin of 2 pi m/n for m < n. */
typedef struct twiddles {
    int n;
    long double *cos, *sin;
} twiddles;

static twiddles twiddles_make(int n) {
    static const long double two_pi = 6.283185307179586476925286766559005768L;
    twiddles w = {n, xalloc(sizeof(long double) * (size_t)n),
                  xalloc(sizeof(long double) * (size_t)n)};
    for (int m = 0; m < n; m++) {
        const long double a = two_pi * (long double)m / (long double)n;
        w.cos[m] = cosl(a);
        w.sin[m] = sinl(a);
    }
    return w;
}

static void twiddles_free(twiddles *w) {
    free(w->cos);
    free(w->sin);
}

/* What one pass along a dimension computes. */
typedef enum pass {
    P_C2C,       /* n complex values to n */
    P_R2HALF,    /* n real values to entries 0 … n/2 of their transform */
    P_HALF2REAL, /* entries 0 … n/2 of a Hermitian sequence to its real transform */
} pass;

/* One line: y_k = sum_j x_j exp(sign 2 pi i jk/n), the index jk mod n
 * stepped without a division. Outputs k and n−k share their twiddles
 * (conjugates), so c2c and half-to-real compute the two together. */
static void dft_line(const st_lc *x, st_lc *y, const twiddles *w, int sign, pass p) {
    const int n = w->n, h = n / 2 + 1;
    const long double sg = sign < 0 ? -1.0L : 1.0L;
    const long double *cs = w->cos, *sn = w->sin;
    switch (p) {
    case P_C2C:
        for (int k = 0; k < h; k++) {
            /* x e^(i s t) = (re c − s im sn) + i (im c + s re sn). */
            long double pr = 0, pi = 0, qr = 0, qi = 0;
            for (int j = 0, m = 0; j < n; j++) {
                pr += x[j].re * cs[m];
                pi += x[j].im * cs[m];
                qr += x[j].re * sn[m];
                qi += x[j].im * sn[m];
                m += k;
                if (m >= n)
                    m -= n;
            }
            y[k] = st_lc_make(pr - sg * qi, pi + sg * qr);
            if (k != 0 && 2 * k != n)
                y[n - k] = st_lc_make(pr + sg * qi, pi - sg * qr);
        }
        return;
    case P_R2HALF:
        for (int k = 0; k < h; k++) {
            long double pr = 0, qr = 0;
            for (int j = 0, m = 0; j < n; j++) {
                pr += x[j].re * cs[m];
                qr += x[j].re * sn[m];
                m += k;
                if (m >= n)
                    m -= n;
            }
            y[k] = st_lc_make(pr, sg * qr);
        }
        return;
    case P_HALF2REAL:
        /* y_k = sum_j c_j Re(x_j e^(i s 2 pi jk/n)), c_j = 2 for the entries
         * standing for their conjugates too (not 0, not n/2). */
        for (int k = 0; k < h; k++) {
            long double a = 0, b = 0;
            for (int j = 0, m = 0; j < h; j++) {
                const long double c = (j == 0 || 2 * j == n) ? 1.0L : 2.0L;
                a += c * x[j].re * cs[m];
                b += c * x[j].im * sn[m];
                m += k;
                if (m >= n)
                    m -= n;
            }
            y[k] = st_lc_make(a - sg * b, 0);
            if (k != 0 && 2 * k != n)
                y[n - k] = st_lc_make(a + sg * b, 0);
        }
        return;
    }
}

/* One pass along dimension `axis` of a row-major array src (sizes sdims)
 * into dst (sizes ddims, equal but along axis). */
static void dft_pass(const st_lc *src, const int *sdims, st_lc *dst, const int *ddims, int rank,
                     int axis, const twiddles *w, int sign, pass p) {
    size_t outer = 1, inner = 1;
    for (int d = 0; d < axis; d++)
        outer *= (size_t)sdims[d];
    for (int d = axis + 1; d < rank; d++)
        inner *= (size_t)sdims[d];
    const int slen = sdims[axis], dlen = ddims[axis];
    st_lc *x = xalloc(sizeof(st_lc) * (size_t)w->n), *y = xalloc(sizeof(st_lc) * (size_t)w->n);
    for (size_t o = 0; o < outer; o++)
        for (size_t i = 0; i < inner; i++) {
            const st_lc *from = src + o * (size_t)slen * inner + i;
            st_lc *to = dst + o * (size_t)dlen * inner + i;
            for (int j = 0; j < slen; j++)
                x[j] = from[(size_t)j * inner];
            dft_line(x, y, w, sign, p);
            for (int k = 0; k < dlen; k++)
                to[(size_t)k * inner] = y[k];
        }
    free(x);
    free(y);
}

/* The reference output of transform sh of kind k (forward for c2c) from
 * the dense input x; returns it, dense over the output side's sizes. */
static st_lc *reference(kind k, const shape *sh, const side *in, const side *out, const st_lc *x) {
    const int rank = sh->rank, last = rank - 1;
    const size_t count = in->count > out->count ? in->count : out->count;
    st_lc *a = xalloc(sizeof(st_lc) * count), *b = xalloc(sizeof(st_lc) * count);
    memcpy(a, x, sizeof(st_lc) * in->count);
    int dims[MAX_RANK];
    memcpy(dims, in->n, sizeof(dims));
    /* r2c halves the last dimension first, c2r expands it last. */
    for (int p = 0; p < rank; p++) {
        const int axis = k == K_R2C ? (p == 0 ? last : p - 1) : p;
        int ddims[MAX_RANK];
        memcpy(ddims, dims, sizeof(ddims));
        ddims[axis] = out->n[axis];
        const pass ps = axis != last || k == K_C2C ? P_C2C : k == K_R2C ? P_R2HALF : P_HALF2REAL;
        twiddles w = twiddles_make(sh->n[axis]);
        dft_pass(a, dims, b, ddims, rank, axis, &w, k == K_C2R ? 1 : -1, ps);
        twiddles_free(&w);
        st_lc *t = a;
        a = b;
        b = t;
        memcpy(dims, ddims, sizeof(dims));
    }
    free(b);
    return a;
}

/* ---- one transform ----------------------------------------------------------------- */

/* A transform's input (dense, rounded to the working precision), reference
 * output and ||x||_2 * sqrt(N). */
typedef struct transform {
    const entry *e;
    const shape *sh;
    side in, out; /* out of place, for the dense sizes */
    st_lc *x, *y;
    long double scale; /* ||x||_2 * sqrt(N) */
    size_t points;
} transform;

static long double rounded(int dbl, double v) {
    return dbl ? (long double)v : (long double)(float)v;
}

/* Random input; a c2r's is made Hermitian (the top of the file). */
static void make_input(st_check *c, transform *tr) {
    const side *in = &tr->in;
    const int dbl = tr->e->dbl;
    tr->x = xalloc(sizeof(st_lc) * in->count);
    for (size_t k = 0; k < in->count; k++) {
        tr->x[k].re = rounded(dbl, st_rand(c));
        tr->x[k].im = in->cx ? rounded(dbl, st_rand(c)) : 0;
    }
    if (tr->e->k != K_C2R)
        return;
    const int rank = in->rank, last = rank - 1, n = tr->sh->n[last], h = in->n[last];
    int lead[MAX_RANK] = {0, 0, 0}; /* the sizes but the last */
    size_t planes = 1;
    for (int d = 0; d < last; d++) {
        lead[d] = in->n[d];
        planes *= (size_t)in->n[d];
    }
    for (int kl = 0; kl < h; kl++) {
        if (kl != 0 && 2 * kl != n)
            continue;
        for (size_t p = 0; p < planes; p++) {
            const size_t q = last ? negated(last, lead, p) : 0;
            st_lc *xp = &tr->x[p * (size_t)h + (size_t)kl];
            if (q == p)
                xp->im = 0;
            else if (p < q)
                tr->x[q * (size_t)h + (size_t)kl] = st_conj(*xp);
        }
    }
}

static void transform_init(st_check *c, transform *tr, const entry *e, const shape *sh) {
    memset(tr, 0, sizeof(*tr));
    tr->e = e;
    tr->sh = sh;
    make_sides(e, sh, 0, &tr->in, &tr->out);
    tr->points = 1;
    for (int d = 0; d < sh->rank; d++)
        tr->points *= (size_t)sh->n[d];
    make_input(c, tr);
    tr->y = reference(e->k, sh, &tr->in, &tr->out, tr->x);
    long double ss = 0;
    if (e->k == K_C2R) { /* the full spectrum's norm from its stored half */
        const int last = sh->rank - 1, n = sh->n[last], h = tr->in.n[last];
        for (size_t k = 0; k < tr->in.count; k++) {
            const int kl = (int)(k % (size_t)h);
            const long double wgt = (kl == 0 || 2 * kl == n) ? 1.0L : 2.0L;
            ss += wgt * (tr->x[k].re * tr->x[k].re + tr->x[k].im * tr->x[k].im);
        }
    } else {
        for (size_t k = 0; k < tr->in.count; k++)
            ss += tr->x[k].re * tr->x[k].re + tr->x[k].im * tr->x[k].im;
    }
    tr->scale = sqrtl(ss) * sqrtl((long double)tr->points);
}

static void transform_free(transform *tr) {
    free(tr->x);
    free(tr->y);
}

/* ---- a case --------------------------------------------------------------------------- */

static void *call_planner(const st_check *c, const entry *e, const shape *sh, const side *in,
                          const side *out, void *ip, void *op, int sign, unsigned flags) {
    const int r = sh->rank, *n = sh->n;
    if (e->dbl)
        switch (e->k) {
        case K_C2C:
            return ((__typeof__(&fftw_plan_many_dft))c->fn)(
                r, n, 1, ip, in->embed, in->stride, 0, op, out->embed, out->stride, 0, sign, flags);
        case K_R2C:
            return ((__typeof__(&fftw_plan_many_dft_r2c))c->fn)(
                r, n, 1, ip, in->embed, in->stride, 0, op, out->embed, out->stride, 0, flags);
        case K_C2R:
            return ((__typeof__(&fftw_plan_many_dft_c2r))c->fn)(
                r, n, 1, ip, in->embed, in->stride, 0, op, out->embed, out->stride, 0, flags);
        }
    switch (e->k) {
    case K_C2C:
        return ((__typeof__(&fftwf_plan_many_dft))c->fn)(r, n, 1, ip, in->embed, in->stride, 0, op,
                                                         out->embed, out->stride, 0, sign, flags);
    case K_R2C:
        return ((__typeof__(&fftwf_plan_many_dft_r2c))c->fn)(r, n, 1, ip, in->embed, in->stride, 0,
                                                             op, out->embed, out->stride, 0, flags);
    case K_C2R:
        return ((__typeof__(&fftwf_plan_many_dft_c2r))c->fn)(r, n, 1, ip, in->embed, in->stride, 0,
                                                             op, out->embed, out->stride, 0, flags);
    }
    return NULL;
}

/* Plans on scratch arrays (freed before the plan is used, as fft.c does). */
static void *make_plan(const st_check *c, const entry *e, const shape *sh, const side *in,
                       const side *out, int inplace, int sign, unsigned flags) {
    const size_t ib = in->span * in->es, ob = out->span * out->es;
    void *ip = fftw_malloc(inplace && ob > ib ? ob : ib);
    void *op = inplace ? ip : fftw_malloc(ob);
    if (!ip || !op)
        abort();
    memset(ip, 0, inplace && ob > ib ? ob : ib);
    void *plan = call_planner(c, e, sh, in, out, ip, op, sign, flags);
    fftw_free(ip);
    if (!inplace)
        fftw_free(op);
    return plan;
}

static void execute(const entry *e, void *plan, void *ip, void *op) {
    if (e->dbl)
        switch (e->k) {
        case K_C2C: fftw_execute_dft(plan, ip, op); return;
        case K_R2C: fftw_execute_dft_r2c(plan, ip, op); return;
        case K_C2R: fftw_execute_dft_c2r(plan, ip, op); return;
        }
    switch (e->k) {
    case K_C2C: fftwf_execute_dft(plan, ip, op); return;
    case K_R2C: fftwf_execute_dft_r2c(plan, ip, op); return;
    case K_C2R: fftwf_execute_dft_c2r(plan, ip, op); return;
    }
}

static void destroy(const entry *e, void *plan) {
    if (e->dbl)
        fftw_destroy_plan(plan);
    else
        fftwf_destroy_plan(plan);
}

/* The bytes of side s's elements get bit in mask. */
static void mark(unsigned char *mask, const side *s, const size_t *off, unsigned char bit) {
    for (size_t k = 0; k < s->count; k++)
        for (size_t b = 0; b < s->es; b++)
            mask[off[k] * s->es + b] |= bit;
}

/* Every byte outside the mask as it was. Returns 1 when so. */
static int untouched(st_check *c, const char *name, const unsigned char *p,
                     const unsigned char *init, const unsigned char *mask, size_t bytes) {
    for (size_t b = 0; b < bytes; b++)
        if (!mask[b] && p[b] != init[b]) {
            st_fail(c,
                    "wrote byte %zu of the %s (%zu bytes), in no element of its layout (a "
                    "stride's gap or embedding padding)",
                    b, name, bytes);
            return 0;
        }
    return 1;
}

/* The output against the reference, normwise. */
static void compare(st_check *c, const transform *tr, const side *out, const unsigned char *op,
                    const size_t *off, int sign) {
    const long double u = st_unit(out->t);
    int lg = 0;
    while (((size_t)1 << lg) < tr->points)
        lg++;
    const long double bound = BOUND_C * (long double)(lg + 1) * u * tr->scale;
    long double err2 = 0, worst = -1;
    size_t at = 0;
    st_lc got_at = {0, 0}, want_at = {0, 0};
    for (size_t k = 0; k < out->count; k++) {
        const st_lc got = st_get(out->t, op, (ptrdiff_t)off[k]);
        const st_lc want = tr->y[sign > 0 ? negated(out->rank, out->n, k) : k];
        if (!isfinite(got.re) || !isfinite(got.im)) {
            char where[48];
            c->worst = INFINITY;
            index_text(where, sizeof(where), out->rank, out->n, k);
            st_fail(c,
                    "output element %s is %s (a sentinel read outside the input or left "
                    "unwritten, or computed)",
                    where, isnan(got.re) || isnan(got.im) ? "NaN" : "infinite");
            return;
        }
        const st_lc d = st_sub(got, want);
        const long double e2 = d.re * d.re + d.im * d.im;
        err2 += e2;
        if (e2 > worst) {
            worst = e2;
            at = k;
            got_at = got;
            want_at = want;
        }
    }
    const long double err = sqrtl(err2);
    const double ratio = bound > 0 ? (double)(err / bound) : (err > 0 ? INFINITY : 0.0);
    if (ratio > c->worst)
        c->worst = ratio;
    if (err <= bound)
        return;
    char where[48];
    index_text(where, sizeof(where), out->rank, out->n, at);
    /* Short: check.c keeps 130 characters of the reason. */
    st_fail(c,
            "error %.3Lg > bound %.3Lg = %g*%d*u*|x|_2*sqrt(N) (%.3g times); worst at %s, off by "
            "%.3Lg of |y| %.3Lg",
            err, bound, (double)BOUND_C, lg + 1, ratio, where, st_abs(st_sub(got_at, want_at)),
            st_abs(want_at));
}

/* The sentinel in every real of a placed operand. */
static void poison(unsigned char *p, size_t bytes, int dbl) {
    const st_type rt = dbl ? ST_D : ST_S;
    for (size_t i = 0; i < bytes / st_csize(rt); i++)
        st_put_sentinel(rt, p, (ptrdiff_t)i);
}

static void run_case(st_check *c, const transform *tr, int inplace, int sign) {
    const entry *e = tr->e;
    const shape *sh = tr->sh;
    side in, out;
    make_sides(e, sh, inplace, &in, &out);
    char layout[120];
    layout_text(layout, sizeof(layout), sh, &in, &out);
    const char *direction = "";
    if (e->k == K_C2C)
        direction = sign < 0 ? ", forward" : ", backward";
    st_case(c, "%s %s, %s%s, %s", e->name, layout, inplace ? "in place" : "out of place", direction,
            sh->measure ? "FFTW_MEASURE" : "FFTW_ESTIMATE");
    const size_t ib = in.span * in.es, ob = out.span * out.es;
    /* One element past a guard (8 bytes for a double complex operand, see
     * the top of the file). */
    const size_t es = in.es > out.es ? in.es : out.es;
    unsigned char *ip, *op;
    if (inplace) {
        ip = op = st_guard_place(c->guard, 0, ib > ob ? ib : ob, c->place, es > 8 ? 8 : es);
    } else {
        ip = st_guard_place(c->guard, 0, ib, c->place, in.es > 8 ? 8 : in.es);
        op = st_guard_place(c->guard, 1, ob, c->place, out.es > 8 ? 8 : out.es);
    }
    if (!ip || !op) {
        st_fail(c, "out of memory for the operands (%zu and %zu bytes)", ib, ob);
        return;
    }
    const int unaligned = (uintptr_t)ip % 16 != 0 || (uintptr_t)op % 16 != 0;
    const size_t used = strlen(c->current);
    snprintf(c->current + used, sizeof(c->current) - used, "%s",
             unaligned ? ", FFTW_UNALIGNED" : ", aligned");
    const unsigned flags =
        (sh->measure ? FFTW_MEASURE : FFTW_ESTIMATE) | (unaligned ? FFTW_UNALIGNED : 0u);
    void *plan = make_plan(c, e, sh, &in, &out, inplace, sign, flags);
    if (!plan) {
        c->worst = INFINITY;
        st_fail(c, "the planner returned NULL (no plan) for this layout, which the daemon plans");
        return;
    }
    const size_t *ioff = side_offsets(c, &in), *ooff = side_offsets(c, &out);
    const size_t bytes = inplace ? (ib > ob ? ib : ob) : ib;
    poison(ip, bytes, e->dbl);
    for (size_t k = 0; k < in.count; k++)
        st_put(in.t, ip, (ptrdiff_t)ioff[k], tr->x[k]);
    unsigned char *iinit = st_alloc(c, bytes), *oinit = NULL;
    memcpy(iinit, ip, bytes);
    if (!inplace) {
        poison(op, ob, e->dbl); /* its elements too: each must be written */
        oinit = st_alloc(c, ob);
        memcpy(oinit, op, ob);
    }
    execute(e, plan, ip, op);
    destroy(e, plan);

    /* Bytes outside the layouts. */
    unsigned char *mask = st_alloc(c, bytes > ob ? bytes : ob);
    if (inplace) {
        mark(mask, &in, ioff, 1);
        mark(mask, &out, ooff, 2);
        if (!untouched(c, "in-place array", ip, iinit, mask, bytes))
            return;
    } else {
        mark(mask, &out, ooff, 2);
        if (!untouched(c, "output", op, oinit, mask, ob))
            return;
        if (e->k == K_C2R) { /* may overwrite its input's elements */
            memset(mask, 0, ib);
            mark(mask, &in, ioff, 1);
            if (!untouched(c, "input", ip, iinit, mask, ib))
                return;
        } else if (memcmp(ip, iinit, ib) != 0) {
            size_t b = 0;
            while (ip[b] == iinit[b])
                b++;
            st_fail(c,
                    "wrote byte %zu of its input (%zu bytes): an out-of-place %s must preserve "
                    "its input",
                    b, ib, e->name);
            return;
        }
    }
    compare(c, tr, &out, op, ooff, sign);
}

void st_check_fftw(st_check *c) {
    const entry *e = NULL;
    for (int i = 0; i < NTABLE; i++)
        if (table[i].id == c->id)
            e = &table[i];
    if (!e)
        return;
    for (int s = 0; s < NSIZES + NSHAPES; s++) {
        shape one = {.rank = 1, .n = {s < NSIZES ? sizes[s] : 0}};
        int places = 2;
        for (int m = 0; s < NSIZES && m < (int)(sizeof(measured) / sizeof(measured[0])); m++)
            one.measure |= sizes[s] == measured[m];
        for (int m = 0; s < NSIZES && m < (int)(sizeof(out_of_place_only) / sizeof(int)); m++)
            places = sizes[s] == out_of_place_only[m] ? 1 : places;
        transform tr;
        transform_init(c, &tr, e, s < NSIZES ? &one : &shapes[s - NSIZES]);
        for (int inplace = 0; inplace < places; inplace++)
            for (int sign = -1; sign <= 1; sign += 2) {
                if (e->k != K_C2C && sign > 0)
                    continue;
                /* BIG: forward out of place, backward in place (360: both
                 * signs out of place). */
                if (e->k == K_C2C && tr.points >= BIG && places == 2 && (sign > 0) != inplace)
                    continue;
                run_case(c, &tr, inplace, sign);
            }
        transform_free(&tr);
    }
}
