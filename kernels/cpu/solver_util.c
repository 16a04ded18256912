/*
 * solver_util.c — shared pieces of the trnsolver kernels: accurate inner
 * products (solver_util.h explains the accumulation), the iteration record,
 * workspace allocation (and the per-worker LAPACK workspace), finiteness
 * checks and matrix copies.
 */
#include "kernels/cpu/solver_util.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

void trn_sacc_add(trn_sacc *a, int n, const float *x, const float *y) {
    /* Four partial sums: the compiler may vectorise, the order is fixed. */
    double s0 = a->s[0], s1 = a->s[1], s2 = a->s[2], s3 = a->s[3];
    int i = 0;
    for (; i + 4 <= n; i += 4) {
        s0 += (double)x[i] * (double)y[i];
        s1 += (double)x[i + 1] * (double)y[i + 1];
        s2 += (double)x[i + 2] * (double)y[i + 2];
        s3 += (double)x[i + 3] * (double)y[i + 3];
    }
    for (; i < n; i++)
        s0 += (double)x[i] * (double)y[i];
    a->s[0] = s0;
    a->s[1] = s1;
    a->s[2] = s2;
    a->s[3] = s3;
}

double trn_sacc_finish(const trn_sacc *a) {
    return (a->s[0] + a->s[1]) + (a->s[2] + a->s[3]);
}

double trn_sdot_acc(int n, const float *x, const float *y) {
    trn_sacc a = {{0, 0, 0, 0}};
    trn_sacc_add(&a, n, x, y);
    return trn_sacc_finish(&a);
}

/* Dot2 (Ogita, Rump, Oishi 2005, Algorithm 5.3) in four interleaved lanes:
 * lane l takes the elements i = l mod 4, with TwoProduct by fma, TwoSum
 * (Knuth) on its running sum s[l] and the errors summed in c[l]; the lanes
 * are then added by TwoSum too. Four independent dependency chains (one
 * AVX2 + FMA vector, where the CPU has them) instead of one serial chain.
 * The error bound stays Dot2's, |error| <= u |x.y| + gamma_n^2 sum
 * |x_i y_i|, and the bits do not depend on the instruction set: each lane
 * does the same operations in the same order, and fma is exact either way. */
static void dot2_step(double *s, double *c, double a, double b) {
    const double p = a * b, pe = fma(a, b, -p);
    const double t = *s + p, z = t - *s;
    *c += ((*s - (t - z)) + (p - z)) + pe;
    *s = t;
}

/* The elements past the last multiple of 4, into lane 0. */
static void dot2_tail(trn_dacc *a, int i, int n, const double *x, const double *y) {
    for (; i < n; i++)
        dot2_step(&a->s[0], &a->c[0], x[i], y[i]);
}

static void dacc_add_plain(trn_dacc *a, int n, const double *x, const double *y) {
    int i = 0;
    for (; i + 4 <= n; i += 4)
        for (int l = 0; l < 4; l++)
            dot2_step(&a->s[l], &a->c[l], x[i + l], y[i + l]);
    dot2_tail(a, i, n, x, y);
}

#if defined(__x86_64__) && defined(__GNUC__)
/* The same four lanes as one AVX2 vector with hardware fma. */
__attribute__((target("avx2,fma"))) static void dacc_add_avx2(trn_dacc *a, int n, const double *x,
                                                              const double *y) {
    __m256d s = _mm256_loadu_pd(a->s), c = _mm256_loadu_pd(a->c);
    int i = 0;
    for (; i + 4 <= n; i += 4) {
        const __m256d u = _mm256_loadu_pd(x + i), v = _mm256_loadu_pd(y + i);
        const __m256d p = _mm256_mul_pd(u, v), pe = _mm256_fmsub_pd(u, v, p);
        const __m256d t = _mm256_add_pd(s, p), z = _mm256_sub_pd(t, s);
        const __m256d e = _mm256_add_pd(_mm256_sub_pd(s, _mm256_sub_pd(t, z)), _mm256_sub_pd(p, z));
        c = _mm256_add_pd(c, _mm256_add_pd(e, pe));
        s = t;
    }
    _mm256_storeu_pd(a->s, s);
    _mm256_storeu_pd(a->c, c);
    dot2_tail(a, i, n, x, y);
}
#endif

void trn_dacc_add(trn_dacc *a, int n, const double *x, const double *y) {
#if defined(__x86_64__) && defined(__GNUC__)
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
        dacc_add_avx2(a, n, x, y);
        return;
    }
#endif
    dacc_add_plain(a, n, x, y);
}

double trn_dacc_finish(const trn_dacc *a) {
    double s0 = a->s[0], c0 = a->c[0] + a->c[1] + a->c[2] + a->c[3];
    for (int l = 1; l < 4; l++) {
        const double t = s0 + a->s[l], z = t - s0;
        c0 += (s0 - (t - z)) + (a->s[l] - z);
        s0 = t;
    }
    return s0 + c0;
}

double trn_ddot_acc(int n, const double *x, const double *y) {
    trn_dacc a = {{0, 0, 0, 0}, {0, 0, 0, 0}};
    trn_dacc_add(&a, n, x, y);
    return trn_dacc_finish(&a);
}

double trn_snrm2_acc(int n, const float *x) {
    return sqrt(trn_sdot_acc(n, x, x));
}

double trn_dnrm2_acc(int n, const double *x) {
    return sqrt(trn_ddot_acc(n, x, x));
}

void trn_solver_put_stats(trn_solver_stats *stats, int iterations, int status, double residual) {
    if (!stats)
        return;
    trn_solver_stats v = {.iterations = iterations, .status = status, .residual = residual};
    memcpy(stats, &v, sizeof(v));
}

void *trn_solver_alloc(size_t count, size_t size) {
    size_t bytes;
    if (__builtin_mul_overflow(count, size, &bytes))
        return NULL;
    return malloc(bytes ? bytes : 1);
}

/* The calling thread's kept workspace (worker threads of the scheduler;
 * solver_util.h says why it is kept), freed by the key's destructor when
 * the thread exits. */
typedef struct ws_slot {
    void *p;
    size_t cap;
    int busy;
} ws_slot;

static _Thread_local ws_slot ws;
static pthread_key_t ws_key;
static pthread_once_t ws_once = PTHREAD_ONCE_INIT;

static void *ws_map(size_t bytes) {
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return NULL;
    (void)madvise(p, bytes, MADV_HUGEPAGE); /* advice only: fine if refused */
    return p;
}

static void ws_release(void *slot) {
    ws_slot *w = slot;
    if (w && w->p)
        munmap(w->p, w->cap);
    if (w) {
        w->p = NULL;
        w->cap = 0;
    }
}

static void ws_key_init(void) {
    (void)pthread_key_create(&ws_key, ws_release);
}

void *trn_solver_ws_get(size_t bytes) {
    if (bytes == 0)
        bytes = 1;
    if (bytes > TRN_SOLVER_WS_KEEP || ws.busy)
        return ws_map(bytes);
    if (ws.cap < bytes) {
        ws_release(&ws);
        /* Round up to 1 MiB so that slowly growing requests do not remap
         * every time. */
        const size_t cap = (bytes + ((size_t)1 << 20) - 1) & ~(((size_t)1 << 20) - 1);
        ws.p = ws_map(cap);
        if (!ws.p)
            return NULL;
        ws.cap = cap;
        pthread_once(&ws_once, ws_key_init);
        (void)pthread_setspecific(ws_key, &ws);
    }
    ws.busy = 1;
    return ws.p;
}

void trn_solver_ws_put(void *p, size_t bytes) {
    if (!p)
        return;
    if (p == ws.p && ws.busy) {
        ws.busy = 0;
        return;
    }
    munmap(p, bytes ? bytes : 1);
}

int trn_solver_nonfinite(trn_dtype t, int rows, int cols, const void *a, int ld) {
    const size_t comps = trn_dtype_is_complex(t) ? 2 : 1;
    const int single = trn_dtype_is_single(t);
    for (int j = 0; j < cols; j++) {
        const size_t off = (size_t)j * (size_t)ld * comps;
        const size_t len = (size_t)rows * comps;
        if (single) {
            const float *c = (const float *)a + off;
            for (size_t i = 0; i < len; i++)
                if (!isfinite(c[i]))
                    return 1;
        } else {
            const double *c = (const double *)a + off;
            for (size_t i = 0; i < len; i++)
                if (!isfinite(c[i]))
                    return 1;
        }
    }
    return 0;
}

/* Rows a multiple of 64 get 8 elements more: a column is then an odd number
 * of cache lines for doubles (and not a multiple of 4 KiB for any type), so
 * a walk along a row (a left-side rotation, dlasr 'L', as bdsqr applies to
 * VT) spreads over the L1's sets instead of thrashing one of them. */
int trn_solver_priv_ld(int rows) {
    if (rows < 64)
        return rows > 1 ? rows : 1;
    return rows % 64 == 0 ? rows + 8 : rows; /* rows <= INT_MAX - 63 here */
}

size_t trn_solver_priv_bytes(trn_dtype t, int rows, int cols) {
    /* rows, cols < 2^31 and es <= 16: no overflow in 64 bits. */
    const size_t ld = (size_t)trn_solver_priv_ld(rows), c = cols > 0 ? (size_t)cols : 0;
    return trn_solver_ws_align((c + 1) * ld * trn_dtype_size(t) + 256);
}

void trn_solver_copy(int rows, int cols, size_t es, const void *src, int lds, void *dst, int ldd) {
    if (rows <= 0 || cols <= 0)
        return;
    for (int j = 0; j < cols; j++)
        memmove((char *)dst + (size_t)j * (size_t)ldd * es,
                (const char *)src + (size_t)j * (size_t)lds * es, (size_t)rows * es);
}

double trn_solver_comp(trn_dtype t, const void *p, size_t k, int c) {
    const size_t at = k * (trn_dtype_is_complex(t) ? (size_t)2 : (size_t)1) + (size_t)c;
    return trn_dtype_is_single(t) ? (double)((const float *)p)[at] : ((const double *)p)[at];
}

void trn_solver_set_comp(trn_dtype t, void *p, size_t k, int c, double v) {
    const size_t at = k * (trn_dtype_is_complex(t) ? (size_t)2 : (size_t)1) + (size_t)c;
    if (trn_dtype_is_single(t))
        ((float *)p)[at] = (float)v;
    else
        ((double *)p)[at] = v;
}

void trn_solver_copy_triangle(int lower, int n, size_t es, const void *src, int lds, void *dst,
                              int ldd, int zero) {
    for (int j = 0; j < n; j++) {
        char *col = (char *)dst + (size_t)j * (size_t)ldd * es;
        const int r0 = lower ? j : 0, r1 = lower ? n : j + 1;
        if (zero) {
            memset(col, 0, (size_t)r0 * es);
            memset(col + (size_t)r1 * es, 0, (size_t)(n - r1) * es);
        }
        memcpy(col + (size_t)r0 * es,
               (const char *)src + ((size_t)j * (size_t)lds + (size_t)r0) * es,
               (size_t)(r1 - r0) * es);
    }
}
