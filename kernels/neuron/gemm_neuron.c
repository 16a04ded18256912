/*
 * gemm_neuron.c — GEMMs on a NeuronCore (gemm_neuron.h).
 *
 * Layouts (program.h): at[b][p][l][i] = op(A)(i,l), b[b][p][l][j] =
 * op(B)(l,j), c and d [b][p][i][j] = C(i,j), planes p = real, imaginary.
 * The packing reads each column-major operand once; what it costs on the
 * host is O(mk + kn + mn) per matrix against the core's O(mnk).
 */
#include "kernels/neuron/gemm_neuron.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kernels/neuron/core_copy.h"
#include "kernels/neuron/nc_cost.h"
#include "ops/span.h"

int trn_ngemm_program(const trn_gemm_desc *d, trn_nprog_gemm *g) {
    memset(g, 0, sizeof(*g));
    /* FP32 data only: 16-bit and int8 storage (an R32F C with narrow A and
     * B included) stays on the CPU backend. */
    if ((d->type != TRN_DTYPE_R32F && d->type != TRN_DTYPE_C32F) || trn_gemm_narrow(d))
        return 0;
    switch (d->compute) {
    case TRN_COMPUTE_DEFAULT:
    case TRN_COMPUTE_32F: g->mode = TRN_NPROG_FP32; break;
    case TRN_COMPUTE_32F_FAST_16BF:
        if (d->stochastic)
            return 0;
        g->mode = TRN_NPROG_BF16;
        break;
    case TRN_COMPUTE_32F_BF16X3: g->mode = TRN_NPROG_BF16X3; break;
    default: return 0;
    }
    const int lists = d->a_list != NULL;
    if (d->m < 1 || d->n < 1 || d->k < 1 || (!lists && (!d->a || !d->b)))
        return 0;
    if (!d->alpha_ptr && d->alpha.re == 0 && d->alpha.im == 0)
        return 0;
    if (d->batch > 0x7fffffff)
        return 0;
    g->complex = d->type == TRN_DTYPE_C32F;
    g->m = d->m;
    g->n = d->n;
    g->k = d->k;
    g->batch = d->batch > 1 ? (int)d->batch : 1;
    return 1;
}

int trn_ngemm_colmajor(const trn_gemm_desc *d, trn_nprog_gemm *g) {
    if (g->complex || d->a_list || d->b_list || d->c_list)
        return 0;
    /* The same elements as the packed program's: its sizes were checked. */
    g->layout = TRN_NPROG_COLMAJOR;
    g->ta = d->transa != TRN_TRANS_N; /* a real matrix's conjugate is itself */
    g->tb = d->transb != TRN_TRANS_N;
    return 1;
}

int trn_ngemm_split(trn_nprog_gemm *g, int cores, uint64_t min_flop) {
    if (min_flop == 0 || cores < 2)
        return 1;
    const double flop =
        2.0 * g->m * (double)g->n * (double)g->k * (double)g->batch * (g->complex ? 4 : 1);
    const double by_work = floor(flop / (double)min_flop);
    int parts = by_work < cores ? (int)by_work : cores;
    if (g->batch > 1) {
        parts = parts < g->batch ? parts : g->batch;
        if (parts < 2)
            return 1;
        const int whole = g->batch, per = whole / parts + (whole % parts != 0);
        g->batch = per;
        return whole / per + (whole % per != 0);
    }
    const int by_cols = g->n / TRN_NGEMM_SPLIT_MIN_COLS;
    parts = parts < by_cols ? parts : by_cols;
    if (parts < 2)
        return 1;
    const int whole = g->n, per = whole / parts + (whole % parts != 0);
    g->n = per;
    return whole / per + (whole % per != 0);
}

int trn_ngemm_pipeline(trn_nprog_gemm *g) {
    if (g->batch < 2)
        return 1;
    const double planes = g->complex ? 2 : 1;
    const double per_matrix =
        4.0 * planes * ((double)g->m * g->k + (double)g->k * g->n + (double)g->m * g->n);
    const double by_bytes = floor(per_matrix * g->batch / TRN_NGEMM_PIPELINE_MIN_BYTES);
    const int n = by_bytes < g->batch ? (int)by_bytes : g->batch;
    if (n < 2)
        return 1;
    const int whole = g->batch, per = whole / n + (whole % n != 0);
    g->batch = per;
    return whole / per + (whole % per != 0);
}

trn_ngemm_part trn_ngemm_part_of(const trn_gemm_desc *d, const trn_nprog_gemm *g, int part,
                                 int parts) {
    trn_ngemm_part p = {0, 1, 0, d->n};
    if (parts <= 1) {
        p.nbatch = (size_t)g->batch;
        return p;
    }
    if (d->batch > 1) {
        p.batch0 = (size_t)part * (size_t)g->batch;
        p.nbatch = d->batch - p.batch0 < (size_t)g->batch ? d->batch - p.batch0 : (size_t)g->batch;
        return p;
    }
    p.col0 = part * g->n;
    p.ncols = d->n - p.col0 < g->n ? d->n - p.col0 : g->n;
    return p;
}

/* Matrix i of a batch operand. */
static const float *nth(const void *base, const void *const *list, size_t stride, size_t i,
                        int planes) {
    if (list)
        return list[i];
    return (const float *)base + i * stride * (size_t)planes;
}

static float *nth_c(const trn_gemm_desc *d, size_t i, int planes) {
    return d->c_list ? d->c_list[i] : (float *)d->c + i * d->stride_c * (size_t)planes;
}

/* op(X)(r, l) of column-major X with leading dimension ld, for trans t:
 * element r + l*ld (N) or l + r*ld (T, C); imaginary part negated for C. */
static void element(const float *x, int ld, trn_trans t, int cplx, size_t r, size_t l, float *re,
                    float *im) {
    const size_t at = t == TRN_TRANS_N ? r + l * (size_t)ld : l + r * (size_t)ld;
    if (!cplx) {
        *re = x[at];
        *im = 0;
        return;
    }
    *re = x[2 * at];
    *im = t == TRN_TRANS_C ? -x[2 * at + 1] : x[2 * at + 1];
}

/* The "at" layout of an m×k op(A): out[p][l][i] = op(A)(i, l). */
static void pack_at(float *out, const float *a, int lda, trn_trans t, int cplx, size_t m,
                    size_t k) {
    const size_t plane = m * k;
    for (size_t l = 0; l < k; l++)
        for (size_t i = 0; i < m; i++) {
            float re, im;
            element(a, lda, t, cplx, i, l, &re, &im);
            out[l * m + i] = re;
            if (cplx)
                out[plane + l * m + i] = im;
        }
}

/* The "b" layout of a k×w op(B) block: out[p][l][j] = op(B)(l, col0 + j)
 * for j < ncols; columns ncols..w-1 are left as they are (zeros). */
static void pack_b(float *out, const float *b, int ldb, trn_trans t, int cplx, size_t k, size_t w,
                   size_t col0, size_t ncols) {
    const size_t plane = k * w;
    for (size_t l = 0; l < k; l++)
        for (size_t j = 0; j < ncols; j++) {
            float re, im;
            element(b, ldb, t, cplx, l, col0 + j, &re, &im);
            out[l * w + j] = re;
            if (cplx)
                out[plane + l * w + j] = im;
        }
}

/* Between the c/d layout [p][i][j] (rows of width w) and columns
 * col0..col0+ncols-1 of column-major C (m rows): into buf, or back into C
 * when to_c. */
static void pack_c(float *buf, float *c, int ldc, int cplx, size_t m, size_t w, size_t col0,
                   size_t ncols, int to_c) {
    const size_t plane = m * w;
    for (size_t j = 0; j < ncols; j++)
        for (size_t i = 0; i < m; i++) {
            const size_t e = i + (col0 + j) * (size_t)ldc, p = i * w + j;
            if (to_c) {
                if (cplx) {
                    c[2 * e] = buf[p];
                    c[2 * e + 1] = buf[plane + p];
                } else {
                    c[e] = buf[p];
                }
            } else if (cplx) {
                buf[p] = c[2 * e];
                buf[plane + p] = c[2 * e + 1];
            } else {
                buf[p] = c[e];
            }
        }
}

/* alpha and beta as the op has them (device pointer mode reads them now). */
static void scalars(const trn_gemm_desc *d, float s[4]) {
    trn_scalar a = d->alpha, b = d->beta;
    const int cplx = d->type == TRN_DTYPE_C32F;
    if (d->alpha_ptr) {
        const float *p = d->alpha_ptr;
        a.re = p[0];
        a.im = cplx ? p[1] : 0;
    }
    if (d->beta_ptr) {
        const float *p = d->beta_ptr;
        b.re = p[0];
        b.im = cplx ? p[1] : 0;
    }
    if (cplx) {
        s[0] = (float)a.re, s[1] = (float)a.im, s[2] = (float)b.re, s[3] = (float)b.im;
    } else {
        s[0] = (float)a.re, s[1] = (float)b.re, s[2] = s[3] = 0;
    }
}

/* One execution of the program: its matrices and columns (part), the
 * tensor set it uses, and what moves data in and out of it. Moves run on
 * the DMA queue when executions are pipelined, so they report failure here
 * rather than by return. */
typedef struct chunk_io {
    trn_nc_runtime *rt;
    trn_nc_loaded *ld;
    const trn_gemm_desc *d;
    const trn_nprog_gemm *g;
    trn_nprog_gemm_bytes by;
    trn_ngemm_part part;
    int set;
    float s[4]; /* alpha, beta */
    int read_c;
    int ahead;  /* a move ahead for the next op (ahead_start) */
    int donors; /* may copy inputs from other tensors of the core (copy_on_core) */
    float *stage;
    int failed;
    char msg[200];
} chunk_io;

/* The operands an execution writes to the core, and their input tensors:
 * by name, or the index-th input when the program names them otherwise. */
enum { OPERAND_A, OPERAND_B, OPERAND_C };
static const struct {
    const char *name, *cm_name; /* packed, layout=cm */
    int index;
} PORTS[] = {{"at", "a", 0}, {"b", "b", 1}, {"c", "c", 2}};

static const char *port_name(const trn_nprog_gemm *g, int which) {
    return g->layout == TRN_NPROG_COLMAJOR ? PORTS[which].cm_name : PORTS[which].name;
}

/* Whether the program reads c: beta (s[1], or s[2..3] complex) is not 0. */
static int reads_c(const float s[4], int complex) {
    return s[complex ? 2 : 1] != 0 || (complex && s[3] != 0);
}

/* Operand `which` of a layout=cm execution: nbatch matrices of cols
 * columns of rows elements in memory, from first, ld apart, stride apart;
 * in the program's tensor, columns of trows, tcols a matrix (program.h). */
typedef struct cm_span {
    const float *first;
    size_t rows, cols, ld, stride, nbatch, trows, tcols;
} cm_span;

static cm_span colmajor_span(const chunk_io *io, int which) {
    const trn_nprog_gemm *g = io->g;
    const trn_gemm_desc *d = io->d;
    const trn_ngemm_part *p = &io->part;
    cm_span s = {.nbatch = p->nbatch};
    if (which == OPERAND_C) {
        s.ld = (size_t)d->ldc, s.stride = d->stride_c;
        s.first = (const float *)d->c + (size_t)p->col0 * s.ld;
        s.rows = s.trows = (size_t)g->m;
        s.cols = (size_t)p->ncols, s.tcols = (size_t)g->n;
    } else {
        int r, c; /* the stored matrix, of the program's part width */
        trn_nprog_gemm_stored(g, which, &r, &c);
        s.rows = s.trows = (size_t)r, s.cols = s.tcols = (size_t)c;
        s.ld = (size_t)(which == OPERAND_A ? d->lda : d->ldb);
        s.stride = which == OPERAND_A ? d->stride_a : d->stride_b;
        s.first = which == OPERAND_A ? d->a : d->b;
        if (which == OPERAND_B && g->tb) /* B is N x K: the part's rows */
            s.first += (size_t)p->col0, s.rows = (size_t)p->ncols;
        else if (which == OPERAND_B) /* B is K x N: the part's columns */
            s.first += (size_t)p->col0 * s.ld, s.cols = (size_t)p->ncols;
    }
    if (s.nbatch <= 1)
        s.stride = 0;
    s.first += p->batch0 * (which == OPERAND_C   ? d->stride_c
                            : which == OPERAND_A ? d->stride_a
                                                 : d->stride_b);
    return s;
}

/* Whether the memory is laid out as the tensor: it then moves as it lies. */
static int cm_as_tensor(const cm_span *s) {
    return s->rows == s->trows && s->ld == s->rows &&
           (s->nbatch <= 1 || (s->cols == s->tcols && s->stride == s->ld * s->cols));
}

/* The bytes of the tensor that hold the span: up to its last element. */
static size_t cm_tensor_bytes(const cm_span *s) {
    return (((s->nbatch - 1) * s->tcols + s->cols - 1) * s->trows + s->rows) * sizeof(float);
}

/* how[0] of a held record of a layout=cm tensor: the record is the span of
 * memory and how the tensor holds it, whatever the program, so any
 * program's tensor of the core that holds it serves (copy_on_core). A
 * packed record's how[0] is its operand, 0-2. */
#define HOW_AS_THEY_LIE 0x100u

/* What the execution's tensor for operand `which` holds once written, as a
 * held record (nc_runtime.h). Packed: the memory of that operand in the
 * whole op (ops/span.h) and everything else that decides the packed bytes.
 * As they lie: exactly the span of memory moved. Not valid (never reused)
 * without a write clock or with pointer lists, whose matrices may be
 * anywhere. */
static trn_nc_held operand_held(const chunk_io *io, int which) {
    const trn_gemm_desc *d = io->d;
    trn_nc_held h;
    memset(&h, 0, sizeof(h));
    if (!io->rt->wclock || d->a_list || d->b_list || d->c_list)
        return h;
    if (io->g->layout == TRN_NPROG_COLMAJOR) {
        const cm_span s = colmajor_span(io, which);
        h.lo = (uintptr_t)s.first;
        h.hi = (uintptr_t)(s.first + (s.nbatch - 1) * s.stride + (s.cols - 1) * s.ld + s.rows);
        const uint64_t how[] = {HOW_AS_THEY_LIE, s.rows,   s.cols,  s.ld,
                                s.stride,        s.nbatch, s.trows, s.tcols};
        memcpy(h.how, how, sizeof(how));
        h.valid = 1;
        return h;
    }
    trn_span whole[3]; /* all of the op's batch: a copy is current while none of it changed */
    h.valid = trn_gemm_spans(d, whole) == 3;
    h.lo = whole[which].lo;
    h.hi = whole[which].hi;
    const uint64_t how[] = {(uint64_t)which,
                            (uint64_t)io->g->complex,
                            (uint64_t)io->g->m,
                            (uint64_t)io->g->n,
                            (uint64_t)io->g->k,
                            (uint64_t)io->g->batch,
                            io->part.batch0,
                            io->part.nbatch,
                            (uint64_t)io->part.col0,
                            (uint64_t)io->part.ncols,
                            (uint64_t)d->transa,
                            (uint64_t)d->transb,
                            (uint64_t)(which == OPERAND_A   ? d->lda
                                       : which == OPERAND_B ? d->ldb
                                                            : d->ldc),
                            (uint64_t)(which == OPERAND_A   ? d->stride_a
                                       : which == OPERAND_B ? d->stride_b
                                                            : d->stride_c)};
    _Static_assert(sizeof(how) <= sizeof(h.how), "a packing's key fits a held record");
    memcpy(h.how, how, sizeof(how));
    return h;
}

/* Whether the input tensor already holds what want describes, current. */
static int held_current(const chunk_io *io, const trn_nc_held *held, const trn_nc_held *want) {
    return want->valid && held->valid && held->lo == want->lo && held->hi == want->hi &&
           memcmp(held->how, want->how, sizeof(want->how)) == 0 &&
           trn_write_clock_unchanged(io->rt->wclock, (const void *)want->lo, want->hi - want->lo,
                                     held->since);
}

static uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Adds n to a traffic counter (NULL: not counted). */
static void count(_Atomic uint64_t *counter, size_t n) {
    if (counter)
        atomic_fetch_add_explicit(counter, n, memory_order_relaxed);
}

/* Counts the host time since t0 as packing (trn_nc_traffic.pack_ns). */
static void count_since(const trn_nc_runtime *rt, uint64_t t0) {
    count(rt->traffic ? &rt->traffic->pack_ns : NULL, (size_t)(now_ns() - t0));
}

/* Writes n bytes of host to the input tensor called name: all of it, or
 * with `part` its first n bytes. */
static int put(chunk_io *io, trn_nrt_tensor *t, size_t size, const char *name, const void *host,
               size_t n, int part) {
    if (!t || n > size || (!part && size != n)) {
        snprintf(io->msg, sizeof(io->msg),
                 "the program's tensor %s is missing or of %zu bytes, not %zu", name, size, n);
        return -1;
    }
    const trn_nrt_status st = trn_nc_move_to_core(io->rt, t, host, n);
    if (st != TRN_NRT_SUCCESS) {
        trn_nc_status_text("nrt_tensor_write", st, io->msg, sizeof(io->msg));
        return -1;
    }
    return 0;
}

/* Whether the execution's matrices or columns fill less than the
 * program's: the rest of its tensors must then be zeros. */
static int chunk_padded(const chunk_io *io) {
    return io->part.nbatch < (size_t)io->g->batch || io->part.ncols < io->g->n;
}

/* Packs operand `which` of the execution into stage (bytes of its tensor). */
static void pack_operand(const chunk_io *io, int which, float *stage, size_t bytes) {
    const trn_gemm_desc *d = io->d;
    const trn_ngemm_part *p = &io->part;
    const int cplx = io->g->complex, planes = cplx ? 2 : 1;
    const size_t m = (size_t)io->g->m, w = (size_t)io->g->n, k = (size_t)io->g->k;
    if (chunk_padded(io))
        memset(stage, 0, bytes);
    for (size_t i = 0; i < p->nbatch; i++) {
        const size_t b = p->batch0 + i;
        if (which == OPERAND_A)
            pack_at(stage + i * m * k * (size_t)planes,
                    nth(d->a, (const void *const *)d->a_list, d->stride_a, b, planes), d->lda,
                    d->transa, cplx, m, k);
        else if (which == OPERAND_B)
            pack_b(stage + i * k * w * (size_t)planes,
                   nth(d->b, (const void *const *)d->b_list, d->stride_b, b, planes), d->ldb,
                   d->transb, cplx, k, w, (size_t)p->col0, (size_t)p->ncols);
        else
            pack_c(stage + i * m * w * (size_t)planes, nth_c(d, b, planes), d->ldc, cplx, m, w,
                   (size_t)p->col0, (size_t)p->ncols, 0);
    }
}

/* The column-major tensor of an operand's span (its first
 * cm_tensor_bytes): its bytes as they lie in memory when the memory is laid
 * out as the tensor (cm_as_tensor), else its columns gathered into the
 * staging buffer (a copy per column, counted as packing). */
static const void *colmajor_source(chunk_io *io, const cm_span *sp) {
    const cm_span s = *sp;
    if (cm_as_tensor(&s))
        return s.first;
    const uint64_t t0 = now_ns();
    for (size_t e = 0; e < s.nbatch; e++)
        for (size_t j = 0; j < s.cols; j++) {
            float *to = io->stage + (e * s.tcols + j) * s.trows;
            memcpy(to, s.first + e * s.stride + j * s.ld, s.rows * sizeof(float));
            if (s.rows < s.trows && (e + 1 < s.nbatch || j + 1 < s.cols))
                memset(to + s.rows, 0, (s.trows - s.rows) * sizeof(float));
        }
    count_since(io->rt, t0);
    return io->stage;
}

/* Copies what want describes into dst (n bytes) from another input tensor
 * of the same core that holds it, current: another program's, or this
 * program's other set. A copy within the core's memory instead of a move
 * from the host. Sets *held to the source's record (its bytes are as old)
 * and returns 0, or -1 when no tensor holds it. Only on the core's worker
 * with no move of the core in flight (io->donors): no other thread then
 * writes the core's records. rt->lock is held across the copy, as it is
 * across a load: trn_nc_unload does not wait for a busy program, so only
 * the lock keeps the source loaded (with --executors off the other cores'
 * workers wait for the copy at their next load or use). */
static int copy_on_core(chunk_io *io, const trn_nc_held *want, trn_nrt_tensor *dst, size_t n,
                        trn_nc_held *held) {
    trn_nc_runtime *rt = io->rt;
    int done = -1;
    pthread_mutex_lock(&rt->lock);
    for (const trn_nc_loaded *o = rt->loaded; o && done != 0; o = o->next) {
        if (o->core != io->ld->core)
            continue;
        for (int ti = 0; ti < o->ntensors && done != 0; ti++)
            for (int s = 0; s < o->nsets && done != 0; s++) {
                const trn_nc_held *h = &o->t[ti].held[s];
                if (o->t[ti].output || h == held || o->t[ti].size < n || !held_current(io, h, want))
                    continue;
                if (rt->api.tensor_copy(trn_nc_copy_bound_tensor(o, s, ti), 0, dst, 0, n) !=
                    TRN_NRT_SUCCESS)
                    continue;
                *held = *h;
                held->ahead = 0;
                count(rt->traffic ? &rt->traffic->on_core : NULL, n);
                done = 0;
            }
    }
    pthread_mutex_unlock(&rt->lock);
    return done;
}

/* Binds input ti of the execution's set to the core's copy of the
 * operand's span (core_copy.h; its bytes), when the span is laid out as
 * the whole tensor: written from the host only when the core has no current copy.
 * Sets the tensor's held record; 0, or -1 to move the operand otherwise. */
static int bind_core_copy(chunk_io *io, int ti, const cm_span *span, size_t bytes,
                          const trn_nc_held *want) {
    trn_nc_runtime *rt = io->rt;
    if (!rt->core_copies || !cm_as_tensor(span) || io->ld->t[ti].size != bytes)
        return -1;
    uint64_t since = 0;
    size_t moved = 0;
    if (trn_nc_copy_bind(rt, io->ld, io->set, ti, span->first, bytes, &since, &moved) != 0)
        return -1;
    count(rt->traffic ? &rt->traffic->kept : NULL, bytes - moved); /* moved: counted there */
    count(rt->traffic ? &rt->traffic->bound : NULL, bytes);
    trn_nc_held *held = &io->ld->t[ti].held[io->set];
    *held = *want;
    held->since = since;
    held->ahead = 0;
    return 0;
}

/* Moves operand `which` into the input tensor called name (the index-th
 * input when the program names it otherwise), unless the tensor already
 * holds it as it is now: taken from memory not written since. The packed
 * layout is packed into the staging buffer first. The column-major one is
 * bound from the core's copy of it when it lies as the tensor
 * (bind_core_copy), else copied on the core from another tensor of the
 * core that holds it (copy_on_core), else moved from memory as it lies
 * (colmajor_source). Binding and copies on the core happen only on the
 * core's worker (io->donors); a move on the DMA queue finds no input of
 * its set bound (trn_ngemm_run, ahead_start). */
static int operand_in_port(chunk_io *io, int which, const char *name, int index, size_t bytes) {
    const int ti = trn_nc_port_index(io->ld, name, 0, index);
    trn_nc_held *held = ti >= 0 ? &io->ld->t[ti].held[io->set] : NULL;
    trn_nc_held want = operand_held(io, which);
    const int cm = io->g->layout == TRN_NPROG_COLMAJOR;
    const cm_span span = cm ? colmajor_span(io, which) : (cm_span){0};
    if (cm)
        bytes = cm_tensor_bytes(&span);
    if (held && held_current(io, held, &want)) {
        /* Kept: not moved for this op, unless it was moved ahead for it
         * (counted as moved then), and counted by the run, not a move ahead. */
        if (!io->ahead && !held->ahead)
            count(io->rt->traffic ? &io->rt->traffic->kept : NULL, bytes);
        if (!io->ahead && io->ld->t[ti].bound[io->set])
            count(io->rt->traffic ? &io->rt->traffic->bound : NULL, bytes);
        if (!io->ahead)
            held->ahead = 0;
        return 0;
    }
    if (held)
        held->valid = 0;
    if (cm && held && want.valid && io->donors && bind_core_copy(io, ti, &span, bytes, &want) == 0)
        return 0;
    /* Its own tensor is written next, so the set must name it again. */
    if (ti >= 0 && io->ld->t[ti].bound[io->set] &&
        (!io->donors || trn_nc_copy_unbind(io->rt, io->ld, io->set, ti) != 0)) {
        snprintf(io->msg, sizeof(io->msg),
                 "the program's tensor %s is bound to a copy on the core and cannot be written",
                 name);
        return -1;
    }
    trn_nrt_tensor *dst = ti >= 0 ? io->ld->t[ti].tensor[io->set] : NULL;
    if (cm && held && want.valid && io->donors && dst && io->ld->t[ti].size >= bytes &&
        copy_on_core(io, &want, dst, bytes, held) == 0)
        return 0;
    if (want.valid) /* before the packing reads the memory */
        want.since = trn_write_clock_now(io->rt->wclock);
    const void *src = io->stage;
    if (cm) {
        src = colmajor_source(io, &span);
    } else {
        const uint64_t t0 = now_ns();
        pack_operand(io, which, io->stage, bytes);
        count_since(io->rt, t0);
    }
    if (put(io, dst, ti >= 0 ? io->ld->t[ti].size : 0, name, src, bytes, cm) != 0)
        return -1;
    if (held) {
        *held = want;
        held->ahead = io->ahead;
    }
    return 0;
}

static int operand_in(chunk_io *io, int which, size_t bytes) {
    return operand_in_port(io, which, port_name(io->g, which), PORTS[which].index, bytes);
}

/* Moves the execution's operands to its tensor set. */
static void chunk_in(void *arg) {
    chunk_io *io = arg;
    io->failed = 1;
    if (operand_in(io, OPERAND_A, io->by.at) != 0 || operand_in(io, OPERAND_B, io->by.b) != 0 ||
        (io->read_c && operand_in(io, OPERAND_C, io->by.c) != 0))
        return;
    if (io->ahead) { /* the run writes alpha and beta itself */
        io->failed = 0;
        return;
    }
    size_t size = 0;
    trn_nrt_tensor *t = trn_nc_port(io->ld, io->set, "scal", 0, 3, &size);
    if (put(io, t, size, "scal", io->s, io->by.scal, 0) != 0)
        return;
    io->failed = 0;
}

/* The result of a layout=cm execution, d [B][N][M], into C: straight
 * into C when C is laid out as d (cm_as_tensor), else through the staging
 * buffer a column at a time. 0, or -1 with st set. */
static int colmajor_out(chunk_io *io, trn_nrt_tensor *dt, trn_nrt_status *st) {
    const trn_ngemm_part *p = &io->part;
    const cm_span s = colmajor_span(io, OPERAND_C);
    const size_t m = s.rows, w = s.tcols, ldc = s.ld;
    float *c = (float *)s.first; /* C's own memory: the op writes it */
    const size_t n = cm_tensor_bytes(&s);
    if (cm_as_tensor(&s)) {
        *st = io->rt->api.tensor_read(dt, c, 0, n);
    } else {
        *st = io->rt->api.tensor_read(dt, io->stage, 0, n);
        const uint64_t t0 = now_ns();
        for (size_t e = 0; *st == TRN_NRT_SUCCESS && e < p->nbatch; e++)
            for (size_t j = 0; j < (size_t)p->ncols; j++)
                memcpy(c + e * io->d->stride_c + j * ldc, io->stage + (e * w + j) * m,
                       m * sizeof(float));
        count_since(io->rt, t0);
    }
    if (*st != TRN_NRT_SUCCESS)
        return -1;
    count(io->rt->traffic ? &io->rt->traffic->from_cores : NULL, n);
    return 0;
}

/* Reads the execution's result back and unpacks it into C. */
static void chunk_out(void *arg) {
    chunk_io *io = arg;
    const trn_ngemm_part *p = &io->part;
    const int cplx = io->g->complex, planes = cplx ? 2 : 1;
    const size_t m = (size_t)io->g->m, w = (size_t)io->g->n;
    const size_t per_c = m * w * (size_t)planes;
    size_t dsize = 0;
    trn_nrt_tensor *dt = trn_nc_port(io->ld, io->set, "d", 1, 0, &dsize);
    trn_nrt_status st = TRN_NRT_INVALID;
    if (dt && dsize == io->by.d && io->g->layout == TRN_NPROG_COLMAJOR) {
        if (colmajor_out(io, dt, &st) == 0)
            return;
    } else if (dt && dsize == io->by.d) {
        st = io->rt->api.tensor_read(dt, io->stage, 0, io->by.d);
    }
    if (st != TRN_NRT_SUCCESS) {
        trn_nc_status_text("nrt_tensor_read of the result", st, io->msg, sizeof(io->msg));
        io->failed = 1;
        return;
    }
    count(io->rt->traffic ? &io->rt->traffic->from_cores : NULL, io->by.d);
    const uint64_t t0 = now_ns();
    for (size_t i = 0; i < p->nbatch; i++)
        pack_c(io->stage + i * per_c, nth_c(io->d, p->batch0 + i, planes), io->d->ldc, cplx, m, w,
               (size_t)p->col0, (size_t)p->ncols, 1);
    count_since(io->rt, t0);
}

/* The matrices of execution j of part p, g->batch at a time. */
static trn_ngemm_part chunk_part(const trn_ngemm_part *p, const trn_nprog_gemm *g, size_t j) {
    trn_ngemm_part c = *p;
    const size_t per = (size_t)g->batch;
    c.batch0 = p->batch0 + j * per;
    c.nbatch = p->nbatch - j * per < per ? p->nbatch - j * per : per;
    return c;
}

/* Queues fn(io) on the DMA queue when pipelined (its ticket), else runs it
 * now (0: nothing to wait for). */
static uint64_t move(trn_nc_runtime *rt, int pipelined, void (*fn)(void *), chunk_io *io) {
    const uint64_t ticket = pipelined ? trn_nc_copy_queue_add(rt, fn, io) : 0;
    if (!ticket)
        fn(io);
    return ticket;
}

/* The staging buffer's size: the most bytes of one tensor of g (packed,
 * or gathered as layout=cm when the memory is not laid out as the tensor). */
static size_t stage_bytes(const trn_nprog_gemm_bytes *by) {
    const uint64_t ab = by->at > by->b ? by->at : by->b, cd = by->c > by->d ? by->c : by->d;
    return (size_t)(ab > cd ? ab : cd);
}

/* How many of the execution's inputs the tensor set io->set already holds,
 * current. */
/* The input tensor of operand `which` in io's program (*ti, -1 when there
 * is none), and whether io's set holds the operand there, current. */
static int port_holds(const chunk_io *io, int which, int *ti) {
    *ti = trn_nc_port_index(io->ld, port_name(io->g, which), 0, PORTS[which].index);
    const trn_nc_held want = operand_held(io, which);
    return *ti >= 0 && held_current(io, &io->ld->t[*ti].held[io->set], &want);
}

static int held_count(const chunk_io *io) {
    int n = 0, ti;
    for (int which = OPERAND_A; which <= (io->read_c ? OPERAND_C : OPERAND_B); which++)
        n += port_holds(io, which, &ti);
    return n;
}

/* Gives the inputs of io's set that do not hold io's operands current
 * their own tensors back, before a move on the DMA queue writes them; an
 * input bound to a current core copy stays bound and is not moved. */
static void unbind_stale(const chunk_io *io) {
    for (int which = OPERAND_A; which <= (io->read_c ? OPERAND_C : OPERAND_B); which++) {
        int ti;
        if (!port_holds(io, which, &ti) && ti >= 0 && io->ld->t[ti].bound[io->set])
            (void)trn_nc_copy_unbind(io->rt, io->ld, io->set, ti); /* refused: shows at the write */
    }
}

/* A move ahead: the next op's execution, with copies of what it points to
 * that the request slot may not keep (descriptor, program). One block. */
typedef struct ahead_job {
    chunk_io io;
    trn_gemm_desc d;
    trn_nprog_gemm g;
    float stage[];
} ahead_job;

void trn_ngemm_ahead_wait(trn_nc_runtime *rt) {
    if (!rt->ahead_job)
        return;
    trn_nc_copy_queue_wait(rt, rt->ahead_ticket);
    free(rt->ahead_job);
    rt->ahead_job = NULL;
}

/* Starts moving next's inputs into tensor set `set` of ld on the DMA queue.
 * A failure is no one's: the set then holds nothing current, and next's
 * run moves its inputs itself. */
static void ahead_start(trn_nc_runtime *rt, trn_nc_loaded *ld, const trn_ngemm_next *next,
                        const trn_nprog_gemm *g, int set) {
    const trn_nprog_gemm_bytes by = trn_nprog_gemm_sizes(g);
    ahead_job *job = malloc(sizeof(*job) + stage_bytes(&by));
    if (!job)
        return;
    job->d = *next->d;
    job->g = *g;
    job->io = (chunk_io){.rt = rt,
                         .ld = ld,
                         .d = &job->d,
                         .g = &job->g,
                         .by = by,
                         .part = next->part,
                         .set = set,
                         .ahead = 1,
                         .stage = job->stage};
    scalars(&job->d, job->io.s);
    job->io.read_c = reads_c(job->io.s, g->complex);
    unbind_stale(&job->io);
    const uint64_t ticket = trn_nc_copy_queue_add(rt, chunk_in, &job->io);
    if (!ticket) {
        free(job);
        return;
    }
    rt->ahead_ticket = ticket;
    rt->ahead_job = job;
}

trn_kstatus trn_ngemm_run(trn_nc_runtime *rt, trn_nc_loaded *ld, const trn_gemm_desc *d,
                          const trn_nprog_gemm *g, const trn_ngemm_part *p,
                          const trn_ngemm_next *next, char *msg, size_t msglen) {
    trn_ngemm_ahead_wait(rt); /* what was moved ahead for this op is in */
    const trn_nprog_gemm_bytes by = trn_nprog_gemm_sizes(g);
    const size_t nexec = (p->nbatch + (size_t)g->batch - 1) / (size_t)g->batch;
    if (nexec > 1) {
        /* Pipelined, the DMA queue writes the sets' own tensors; unbound
         * first, the copies this program bound may make room for set 1. */
        trn_nc_copy_unbind_set(rt, ld, 0);
        trn_nc_copy_unbind_set(rt, ld, 1);
    }
    /* Two tensor sets let execution j+1's inputs be written while j runs. */
    const int pipelined = nexec > 1 && trn_nc_add_set(rt, ld) == 0;
    const int nio = pipelined ? 2 : 1;
    chunk_io io[2];
    uint64_t in_done[2] = {0, 0}, out_done[2] = {0, 0};
    trn_kstatus k_st = TRN_KSTATUS_FAILED;
    for (int i = 0; i < 2; i++) {
        /* Not pipelined, every move runs here on the worker (copy_on_core). */
        io[i] = (chunk_io){
            .rt = rt, .ld = ld, .d = d, .g = g, .by = by, .set = i, .donors = !pipelined};
        scalars(d, io[i].s);
        io[i].read_c = reads_c(io[i].s, g->complex);
        io[i].stage = i < nio ? malloc(stage_bytes(&by)) : NULL;
    }
    if (!io[0].stage || (pipelined && !io[1].stage)) {
        snprintf(msg, msglen, "out of host memory staging a GEMM of %dx%dx%d", g->m, g->n, g->k);
        k_st = TRN_KSTATUS_NO_MEMORY;
        goto out;
    }
    io[0].part = chunk_part(p, g, 0);
    if (nexec == 1 && ld->nsets > 1) { /* the set that holds more of its inputs */
        io[1].part = io[0].part;
        if (held_count(&io[1]) > held_count(&io[0]))
            io[0].set = 1;
    }
    in_done[0] = move(rt, pipelined, chunk_in, &io[0]);
    for (size_t j = 0; j < nexec; j++) {
        chunk_io *cur = &io[j % (size_t)nio];
        trn_nc_copy_queue_wait(rt, in_done[j % (size_t)nio]);
        if (cur->failed) {
            snprintf(msg, msglen, "%s", cur->msg);
            goto out;
        }
        if (pipelined && j + 1 < nexec) {
            /* The other set is free once its last result has been read. */
            chunk_io *next_io = &io[(j + 1) % 2];
            trn_nc_copy_queue_wait(rt, out_done[next_io->set]);
            if (next_io->failed) {
                snprintf(msg, msglen, "%s", next_io->msg);
                goto out;
            }
            next_io->part = chunk_part(p, g, j + 1);
            in_done[next_io->set] = move(rt, pipelined, chunk_in, next_io);
        }
        /* A move ahead costs a hand-off to the DMA queue's thread: worth it
         * when the move takes about a dispatch (as for pipelining). */
        if (nexec == 1 && next && rt->wclock && by.at + by.b >= TRN_NGEMM_PIPELINE_MIN_BYTES &&
            trn_nc_add_set(rt, ld) == 0)
            ahead_start(rt, ld, next, g, 1 - cur->set);
        const trn_nrt_status st = rt->api.execute(ld->model, ld->in[cur->set], ld->out[cur->set]);
        if (st != TRN_NRT_SUCCESS) {
            trn_nc_status_text("nrt_execute", st, msg, msglen);
            goto out;
        }
        out_done[j % (size_t)nio] = move(rt, pipelined, chunk_out, cur);
        if (!pipelined && j + 1 < nexec) {
            if (cur->failed) {
                snprintf(msg, msglen, "%s", cur->msg);
                goto out;
            }
            cur->part = chunk_part(p, g, j + 1);
            chunk_in(cur);
        }
    }
    k_st = TRN_KSTATUS_OK;
out:
    /* The queue's jobs point at io: wait for every one before leaving. */
    for (int i = 0; i < 2; i++) {
        trn_nc_copy_queue_wait(rt, in_done[i]);
        trn_nc_copy_queue_wait(rt, out_done[i]);
    }
    for (int i = 0; k_st == TRN_KSTATUS_OK && i < nio; i++)
        if (io[i].failed) {
            snprintf(msg, msglen, "%s", io[i].msg);
            k_st = TRN_KSTATUS_FAILED;
        }
    free(io[0].stage);
    free(io[1].stage);
    return k_st;
}

/* ---- a GEMM sequence (gemm_seq) ---------------------------------------------------- */

/* Node j's tensor base name (at, b, c, d) with its index: "b3". */
static void seq_name(char *out, size_t len, const char *base, int j) {
    snprintf(out, len, "%s%d", base, j);
}

/* Moves node j's operands whose source is an input (c only when read),
 * each unless its tensor holds it as it is now (operand_in_port: kept
 * between launches while its memory is not written). Tensors are found by
 * name, else by position (*input: the program's inputs are the "in"
 * operands in order, then scal), as the gemm program's are. */
static int seq_inputs_in(chunk_io *io, const trn_nprog_seq *s, int j, int *input) {
    static const char *const base[3] = {"at", "b", "c"};
    const trn_nprog_gemm_bytes by = trn_nprog_gemm_sizes(&s->node[j]);
    const uint64_t bytes[3] = {by.at, by.b, by.c};
    for (int w = OPERAND_A; w <= OPERAND_C; w++) {
        if (s->src[j][w] != TRN_NPROG_SEQ_IN)
            continue;
        const int index = (*input)++;
        if (w == OPERAND_C && !io->read_c)
            continue;
        char name[16];
        seq_name(name, sizeof(name), base[w], j);
        if (operand_in_port(io, w, name, index, (size_t)bytes[w]) != 0)
            return -1;
    }
    return 0;
}

/* Reads node j's result (the j-th output) into result. */
static int seq_result_read(chunk_io *io, int j, float *result) {
    char name[16];
    seq_name(name, sizeof(name), "d", j);
    size_t size = 0;
    trn_nrt_tensor *t = trn_nc_port(io->ld, 0, name, 1, j, &size);
    const trn_nrt_status st =
        t && size == io->by.c ? io->rt->api.tensor_read(t, result, 0, io->by.c) : TRN_NRT_INVALID;
    if (st != TRN_NRT_SUCCESS) {
        trn_nc_status_text("nrt_tensor_read of a sequence's result", st, io->msg, sizeof(io->msg));
        return -1;
    }
    count(io->rt->traffic ? &io->rt->traffic->from_cores : NULL, io->by.c);
    return 0;
}

/* Unpacks node j's result into its C. */
static void seq_result_unpack(const chunk_io *io, float *result) {
    const int cplx = io->g->complex, planes = cplx ? 2 : 1;
    const size_t m = (size_t)io->g->m, w = (size_t)io->g->n, per_c = m * w * (size_t)planes;
    const uint64_t t0 = now_ns();
    for (size_t i = 0; i < io->part.nbatch; i++)
        pack_c(result + i * per_c, nth_c(io->d, i, planes), io->d->ldc, cplx, m, w, 0,
               (size_t)io->g->n, 1);
    count_since(io->rt, t0);
}

trn_kstatus trn_ngemm_seq_run(trn_nc_runtime *rt, trn_nc_loaded *ld, const trn_gemm_desc *const *d,
                              const trn_nprog_seq *s, char *msg, size_t msglen) {
    trn_ngemm_ahead_wait(rt);
    size_t most = 0, results = 0;
    for (int j = 0; j < s->nodes; j++) {
        const trn_nprog_gemm_bytes by = trn_nprog_gemm_sizes(&s->node[j]);
        const size_t b = stage_bytes(&by);
        most = b > most ? b : most;
        results += (size_t)by.c;
    }
    const int planes = s->complex ? 2 : 1;
    float *stage = malloc(most), *result = malloc(results), scal[TRN_NPROG_SEQ_MAX * 4];
    trn_kstatus k = TRN_KSTATUS_FAILED;
    if (!stage || !result) {
        snprintf(msg, msglen, "out of host memory staging a sequence of %d GEMMs", s->nodes);
        k = TRN_KSTATUS_NO_MEMORY;
        goto out;
    }
    chunk_io io[TRN_NPROG_SEQ_MAX];
    int input = 0;
    for (int j = 0; j < s->nodes; j++) {
        io[j] = (chunk_io){.rt = rt, .ld = ld, .d = d[j], .g = &s->node[j], .stage = stage};
        io[j].by = trn_nprog_gemm_sizes(&s->node[j]);
        io[j].part = (trn_ngemm_part){0, (size_t)s->node[j].batch, 0, s->node[j].n};
        float sc[4];
        scalars(d[j], sc);
        io[j].read_c = reads_c(sc, s->complex);
        memcpy(scal + j * 2 * planes, sc, (size_t)planes * 2 * sizeof(float));
        if (seq_inputs_in(&io[j], s, j, &input) != 0) {
            snprintf(msg, msglen, "node %d: %s", j, io[j].msg);
            goto out;
        }
    }
    size_t size = 0;
    trn_nrt_tensor *t = trn_nc_port(ld, 0, "scal", 0, input, &size);
    if (put(&io[0], t, size, "scal", scal, (size_t)s->nodes * 2 * (size_t)planes * sizeof(float),
            0) != 0) {
        snprintf(msg, msglen, "%s", io[0].msg);
        goto out;
    }
    const trn_nrt_status st = rt->api.execute(ld->model, ld->in[0], ld->out[0]);
    if (st != TRN_NRT_SUCCESS) {
        trn_nc_status_text("nrt_execute", st, msg, msglen);
        goto out;
    }
    /* Every result read before any is unpacked: C is written whole or not
     * at all. In node order, so that a later write wins. */
    for (size_t j = 0, at = 0; j < (size_t)s->nodes; at += (size_t)io[j].by.c, j++)
        if (seq_result_read(&io[j], (int)j, result + at / sizeof(float)) != 0) {
            snprintf(msg, msglen, "node %zu: %s", j, io[j].msg);
            goto out;
        }
    for (size_t j = 0, at = 0; j < (size_t)s->nodes; at += (size_t)io[j].by.c, j++)
        seq_result_unpack(&io[j], result + at / sizeof(float));
    k = TRN_KSTATUS_OK;
out:
    free(stage);
    free(result);
    return k;
}
