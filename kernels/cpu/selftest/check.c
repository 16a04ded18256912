/*
 * check.c — cases, comparisons and guarded operands of the self-test
 * (check.h).
 */
#include "kernels/cpu/selftest/check.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* Memory of the running case: chunks mapped from the kernel (not malloc:
 * the self-test must run where the daemon's malloc is limited, e.g. under
 * a sanitizer's allocation limit), reused from case to case and unmapped
 * at st_check_end. */
struct st_scratch {
    st_scratch *next;
    size_t cap, used; /* bytes of data */
    max_align_t data[];
};

#define SCRATCH_CHUNK ((size_t)4 << 20)

static void scratch_reset(st_check *c) {
    for (st_scratch *s = c->scratch; s; s = s->next)
        s->used = 0;
}

static void scratch_free(st_check *c) {
    while (c->scratch) {
        st_scratch *n = c->scratch->next;
        munmap(c->scratch, sizeof(*c->scratch) + c->scratch->cap);
        c->scratch = n;
    }
}

void st_check_begin(st_check *c, int id, const void *fn, st_guard *g) {
    memset(c, 0, sizeof(*c));
    c->id = id;
    c->fn = fn;
    c->guard = g;
    c->rng = 0x9e3779b97f4a7c15ull ^ (uint64_t)(id + 1) * 0xbf58476d1ce4e5b9ull;
}

void st_check_end(st_check *c) {
    scratch_free(c);
}

void st_case(st_check *c, const char *fmt, ...) {
    scratch_reset(c);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->current, sizeof(c->current), fmt, ap);
    va_end(ap);
    /* The placement cycles with the case number, so every routine meets
     * each of them on several shapes. */
    c->place = (st_place)(c->cases % ST_PLACES);
    c->cases++;
    c->case_failed = 0;
}

void st_fail(st_check *c, const char *fmt, ...) {
    if (!c->case_failed) {
        c->case_failed = 1;
        c->failed++;
    }
    if (c->failure[0])
        return;
    char why[ST_TEXT];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof(why), fmt, ap);
    va_end(ap);
    static const char *const place_names[ST_PLACES] = {
        "ending at a guard page", "starting after a guard page", "one element after a guard page"};
    snprintf(c->failure, sizeof(c->failure), "%.150s (operands %s): %.130s", c->current,
             place_names[c->place], why);
}

void *st_alloc(st_check *c, size_t bytes) {
    const size_t need = (bytes + sizeof(max_align_t)) / sizeof(max_align_t) * sizeof(max_align_t);
    st_scratch *s = c->scratch;
    while (s && s->cap - s->used < need)
        s = s->next;
    if (!s) {
        const size_t cap = need > SCRATCH_CHUNK ? need : SCRATCH_CHUNK;
        s = mmap(NULL, sizeof(*s) + cap, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1,
                 0);
        if (s == MAP_FAILED)
            abort(); /* in the child: the parent reports the check as crashed */
        s->cap = cap;
        s->used = 0;
        s->next = c->scratch;
        c->scratch = s;
    }
    void *p = (unsigned char *)s->data + s->used;
    s->used += need;
    memset(p, 0, bytes);
    return p;
}

double st_rand(st_check *c) {
    /* xorshift64*, 53 bits into [-1, 1). */
    c->rng ^= c->rng >> 12;
    c->rng ^= c->rng << 25;
    c->rng ^= c->rng >> 27;
    const uint64_t r = c->rng * 2685821657736338717ull;
    return (double)(r >> 11) * (2.0 / 9007199254740992.0) - 1.0;
}

/* ---- element types ---------------------------------------------------------------- */

size_t st_esize(st_type t) {
    static const size_t s[] = {4, 8, 8, 16};
    return s[t];
}

size_t st_csize(st_type t) {
    return t == ST_S || t == ST_C ? 4 : 8;
}

int st_is_cx(st_type t) {
    return t == ST_C || t == ST_Z;
}

long double st_unit(st_type t) {
    return t == ST_S || t == ST_C ? 0x1p-24L : 0x1p-53L;
}

const char *st_type_name(st_type t) {
    static const char *const n[] = {"S", "D", "C", "Z"};
    return n[t];
}

st_scalar st_scalar_of(st_type t, st_lc v) {
    st_scalar a = {.z = {0, 0}};
    switch (t) {
    case ST_S: a.s = (float)v.re; break;
    case ST_D: a.d = (double)v.re; break;
    case ST_C:
        a.c[0] = (float)v.re;
        a.c[1] = (float)v.im;
        break;
    case ST_Z:
        a.z[0] = (double)v.re;
        a.z[1] = (double)v.im;
        break;
    }
    return a;
}

st_lc st_rounded(st_type t, st_lc v) {
    const st_scalar a = st_scalar_of(t, v);
    return st_get(t, &a, 0);
}

/* Quiet NaNs with a payload no arithmetic produces. */
static const uint32_t sentinel32 = 0x7fc0dea1u;
static const uint64_t sentinel64 = 0x7ff8dead0000bea1ull;

static void put_sentinel_component(size_t cs, unsigned char *at) {
    if (cs == 4)
        memcpy(at, &sentinel32, 4);
    else
        memcpy(at, &sentinel64, 8);
}

/* Elements [0, count) of p the sentinel. */
static void fill_sentinel(st_type t, void *p, size_t count) {
    const size_t comps = count * (st_esize(t) / st_csize(t));
    if (st_csize(t) == 4)
        for (size_t k = 0; k < comps; k++)
            memcpy((unsigned char *)p + 4 * k, &sentinel32, 4);
    else
        for (size_t k = 0; k < comps; k++)
            memcpy((unsigned char *)p + 8 * k, &sentinel64, 8);
}

void st_put_sentinel(st_type t, void *p, ptrdiff_t i) {
    const size_t es = st_esize(t), cs = st_csize(t);
    unsigned char *at = (unsigned char *)p + i * (ptrdiff_t)es;
    for (size_t k = 0; k < es / cs; k++)
        put_sentinel_component(cs, at + k * cs);
}

st_lc st_div(st_lc a, st_lc b) {
    const long double d = b.re * b.re + b.im * b.im;
    return st_lc_make((a.re * b.re + a.im * b.im) / d, (a.im * b.re - a.re * b.im) / d);
}

long double st_abs(st_lc a) {
    return hypotl(a.re, a.im);
}

long double st_abs1(st_lc a) {
    return fabsl(a.re) + fabsl(a.im);
}

static void fmt_lc(char *buf, size_t len, st_lc v, int cx) {
    if (cx)
        snprintf(buf, len, "(%.9Lg, %.9Lg)", v.re, v.im);
    else
        snprintf(buf, len, "%.9Lg", v.re);
}

int st_expect(st_check *c, const char *what, st_lc got, st_lc want, long double bound) {
    const long double err = st_abs(st_sub(got, want));
    const int bad_value = isnan(got.re) || isnan(got.im);
    if (!bad_value && err <= bound) {
        const double r = bound > 0 ? (double)(err / bound) : 0.0;
        if (r > c->worst)
            c->worst = r;
        return 1;
    }
    if (!bad_value) {
        const double r = bound > 0 ? (double)(err / bound) : INFINITY;
        if (r > c->worst)
            c->worst = r;
    } else {
        c->worst = INFINITY;
    }
    const int cx = got.im != 0 || want.im != 0 || isnan(got.im);
    char g[64], w[64];
    fmt_lc(g, sizeof(g), got, cx);
    fmt_lc(w, sizeof(w), want, cx);
    if (bad_value)
        st_fail(c, "%s: got %s, want %s", what, g, w);
    else
        st_fail(c, "%s: got %s, want %s (error %.3Lg > bound %.3Lg)", what, g, w, err, bound);
    return 0;
}

int st_expect_int(st_check *c, const char *what, long long got, long long want) {
    if (got == want)
        return 1;
    c->worst = INFINITY;
    st_fail(c, "%s: got %lld, want %lld", what, got, want);
    return 0;
}

/* ---- vectors ----------------------------------------------------------------------- */

size_t st_vec_span(int n, int inc, size_t es) {
    const size_t a = (size_t)(inc < 0 ? -(long)inc : inc);
    return n <= 0 ? es : ((size_t)(n - 1) * a + 1) * es;
}

/* Index (in elements, from v->p) of element i of the BLAS sequence. */
static ptrdiff_t vec_index(const st_vec *v, int i) {
    return v->inc >= 0 ? (ptrdiff_t)i * v->inc : (ptrdiff_t)(v->n - 1 - i) * (-v->inc);
}

st_lc st_rand_value(st_check *c, st_type t) {
    st_lc v = {st_rand(c), 0};
    if (st_is_cx(t))
        v.im = st_rand(c);
    return v;
}

int st_vec_make(st_check *c, int slot, st_vec *v, st_type t, int n, int inc) {
    return st_vec_make_spare(c, slot, v, t, n, inc, 0);
}

int st_vec_make_spare(st_check *c, int slot, st_vec *v, st_type t, int n, int inc, int spare) {
    memset(v, 0, sizeof(*v));
    v->t = t;
    v->n = n;
    v->inc = inc;
    const size_t es = st_esize(t);
    v->bytes = st_vec_span(n, inc, es) + (size_t)spare * es;
    v->p = st_guard_place(c->guard, slot, v->bytes, c->place, es);
    if (!v->p) {
        st_fail(c, "out of memory for an operand of %zu bytes", v->bytes);
        return -1;
    }
    fill_sentinel(t, v->p, v->bytes / es);
    for (int i = 0; i < n; i++)
        st_put(t, v->p, vec_index(v, i), st_rand_value(c, t));
    v->init = st_alloc(c, v->bytes);
    memcpy(v->init, v->p, v->bytes);
    return 0;
}

st_lc st_vec_at(const st_vec *v, int i) {
    return st_get(v->t, v->init, vec_index(v, i));
}

st_lc st_vec_now(const st_vec *v, int i) {
    return st_get(v->t, v->p, vec_index(v, i));
}

void st_vec_set(st_vec *v, int i, st_lc x) {
    st_put(v->t, v->p, vec_index(v, i), x);
    st_put(v->t, v->init, vec_index(v, i), x);
}

/* Byte ranges [from, to) of an operand that must hold what init holds. */
static int same_bytes(const unsigned char *a, const unsigned char *b, size_t from, size_t to) {
    return to <= from || memcmp(a + from, b + from, to - from) == 0;
}

void st_vec_poison(st_vec *v) {
    for (int i = 0; i < v->n; i++) {
        st_put_sentinel(v->t, v->p, vec_index(v, i));
        st_put_sentinel(v->t, v->init, vec_index(v, i));
    }
}

void st_vec_check(st_check *c, const char *name, const st_vec *v, const st_lc *want,
                  const long double *bound) {
    char what[48];
    for (int i = 0; i < v->n; i++) {
        const st_lc got = st_vec_now(v, i);
        if (st_near(c, got, want[i], bound[i]))
            continue;
        snprintf(what, sizeof(what), "%s[%d]", name, i);
        if (!st_expect(c, what, got, want[i], bound[i]))
            return;
    }
    st_vec_gaps(c, name, v);
}

void st_vec_gaps(st_check *c, const char *name, const st_vec *v) {
    const size_t es = st_esize(v->t);
    const int a = v->inc < 0 ? -v->inc : v->inc;
    for (int i = 0; i + 1 < v->n && a > 1; i++) {
        const size_t from = ((size_t)i * (size_t)a + 1) * es, to = (size_t)(i + 1) * (size_t)a * es;
        if (!same_bytes(v->p, v->init, from, to)) {
            st_fail(c, "%s: wrote into the gap after its element at position %d (increment %d)",
                    name, i, v->inc);
            return;
        }
    }
    const size_t end = st_vec_span(v->n, v->inc, es);
    if (!same_bytes(v->p, v->init, end, v->bytes))
        st_fail(c, "%s: wrote past its last element", name);
}

void st_vec_unchanged(st_check *c, const char *name, const st_vec *v) {
    if (memcmp(v->p, v->init, v->bytes) != 0)
        st_fail(c, "%s: a read-only operand was written", name);
}

/* ---- matrices ---------------------------------------------------------------------- */

int st_mat_make(st_check *c, int slot, st_mat *m, st_type t, int rows, int cols, int ld,
                st_part part, int unit_diag, int real_diag) {
    memset(m, 0, sizeof(*m));
    m->t = t;
    m->rows = rows;
    m->cols = cols;
    m->ld = ld;
    m->part = part;
    m->unit_diag = unit_diag;
    m->real_diag = real_diag && st_is_cx(t);
    const size_t es = st_esize(t);
    const size_t count = rows > 0 && cols > 0 ? (size_t)(cols - 1) * (size_t)ld + (size_t)rows : 1;
    m->bytes = count * es;
    m->p = st_guard_place(c->guard, slot, m->bytes, c->place, es);
    if (!m->p) {
        st_fail(c, "out of memory for an operand of %zu bytes", m->bytes);
        return -1;
    }
    fill_sentinel(t, m->p, count);
    for (int j = 0; j < cols; j++)
        for (int i = 0; i < rows; i++) {
            if (!st_mat_referenced(m, i, j))
                continue;
            st_lc v = st_rand_value(c, t);
            const ptrdiff_t at = (ptrdiff_t)j * ld + i;
            st_put(t, m->p, at, v);
            if (i == j && m->real_diag) /* the imaginary part stays a sentinel */
                put_sentinel_component(st_csize(t),
                                       m->p + at * (ptrdiff_t)es + (ptrdiff_t)st_csize(t));
        }
    m->init = st_alloc(c, m->bytes);
    memcpy(m->init, m->p, m->bytes);
    return 0;
}

void st_mat_set(st_mat *m, int i, int j, st_lc x) {
    const ptrdiff_t at = (ptrdiff_t)j * m->ld + i;
    if (i == j && m->real_diag)
        x.im = 0;
    st_put(m->t, m->p, at, x);
    st_put(m->t, m->init, at, x);
    if (i == j && m->real_diag) {
        const size_t es = st_esize(m->t), cs = st_csize(m->t);
        put_sentinel_component(cs, m->p + at * (ptrdiff_t)es + (ptrdiff_t)cs);
        put_sentinel_component(cs, m->init + at * (ptrdiff_t)es + (ptrdiff_t)cs);
    }
}

void st_mat_poison(st_mat *m, int i, int j) {
    const ptrdiff_t at = (ptrdiff_t)j * m->ld + i;
    st_put_sentinel(m->t, m->p, at);
    st_put_sentinel(m->t, m->init, at);
}

void st_mat_poison_all(st_mat *m) {
    for (int j = 0; j < m->cols; j++)
        for (int i = 0; i < m->rows; i++)
            st_mat_poison(m, i, j);
}

void st_mat_condition(st_check *c, st_mat *m) {
    const int n = m->cols;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
            if ((m->part == ST_UPPER && i > j) || (m->part == ST_LOWER && i < j))
                continue;
            if (i == j) {
                if (!m->unit_diag) {
                    const double r = st_rand(c);
                    st_mat_set(
                        m, i, j,
                        st_lc_make(r < 0 ? r - 1 : r + 1, st_is_cx(m->t) ? 0.5 * st_rand(c) : 0));
                }
                continue;
            }
            const st_lc v = st_mat_at(m, i, j, 0);
            st_mat_set(m, i, j, st_lc_make(v.re / n, v.im / n));
        }
}

static int in_part(st_part part, int i, int j) {
    return part == ST_ALL || (part == ST_UPPER && i <= j) || (part == ST_LOWER && i >= j);
}

int st_mat_untouched(st_check *c, const char *name, const st_mat *m, st_part out,
                     int real_diag_out) {
    const size_t es = st_esize(m->t);
    for (int j = 0; j < m->cols; j++)
        for (int i = 0; i < m->rows; i++) {
            const size_t byte = ((size_t)j * (size_t)m->ld + (size_t)i) * es;
            if (!in_part(out, i, j)) {
                if (!same_bytes(m->p, m->init, byte, byte + es)) {
                    st_fail(c, "%s(%d,%d): wrote outside the part it may write", name, i, j);
                    return 0;
                }
            } else if (i == j && real_diag_out && st_mat_now(m, i, j).im != 0) {
                st_fail(c, "%s(%d,%d): imaginary part %.9Lg on the diagonal, want exactly 0", name,
                        i, j, st_mat_now(m, i, j).im);
                return 0;
            }
        }
    for (int j = 0; j + 1 < m->cols; j++) {
        const size_t from = ((size_t)j * (size_t)m->ld + (size_t)m->rows) * es,
                     to = (size_t)(j + 1) * (size_t)m->ld * es;
        if (!same_bytes(m->p, m->init, from, to)) {
            st_fail(c, "%s: wrote into the padding below column %d (ld %d > %d rows)", name, j,
                    m->ld, m->rows);
            return 0;
        }
    }
    return 1;
}

void st_mat_check(st_check *c, const char *name, const st_mat *m, st_part out, int real_diag_out,
                  const st_lc *want, const long double *bound) {
    if (!st_mat_untouched(c, name, m, out, real_diag_out))
        return;
    char what[64];
    for (int j = 0; j < m->cols; j++)
        for (int i = 0; i < m->rows; i++) {
            if (!in_part(out, i, j))
                continue;
            const size_t k = (size_t)j * (size_t)m->rows + (size_t)i;
            const st_lc got = st_mat_now(m, i, j);
            if (st_near(c, got, want[k], bound[k]))
                continue;
            snprintf(what, sizeof(what), "%s(%d,%d)", name, i, j);
            if (!st_expect(c, what, got, want[k], bound[k]))
                return;
        }
}

void st_mat_unchanged(st_check *c, const char *name, const st_mat *m) {
    if (memcmp(m->p, m->init, m->bytes) != 0)
        st_fail(c, "%s: a read-only operand was written", name);
}
