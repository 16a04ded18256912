/*
 * solver_util.c — shared pieces of the trnsolver kernels: accurate inner
 * products (solver_util.h explains the accumulation), the iteration record,
 * workspace allocation (and the per-worker LAPACK workspace), finiteness
 * checks and matrix copies.
 */
#include "kernels/cpu/solver_util.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

double trn_sdot_acc(int n, const float *x, const float *y) {
    /* Four partial sums: the compiler may vectorise, the order is fixed. */
    double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
    int i = 0;
    for (; i + 4 <= n; i += 4) {
        s0 += (double)x[i] * (double)y[i];
        s1 += (double)x[i + 1] * (double)y[i + 1];
        s2 += (double)x[i + 2] * (double)y[i + 2];
        s3 += (double)x[i + 3] * (double)y[i + 3];
    }
    for (; i < n; i++)
        s0 += (double)x[i] * (double)y[i];
    return (s0 + s1) + (s2 + s3);
}

double trn_ddot_acc(int n, const double *x, const double *y) {
    /* Dot2 (Ogita, Rump, Oishi 2005, Algorithm 5.3): TwoProduct by fma,
     * TwoSum (Knuth) on the running sum, errors summed in c. */
    double s = 0.0, c = 0.0;
    for (int i = 0; i < n; i++) {
        const double p = x[i] * y[i];
        const double pe = fma(x[i], y[i], -p);
        const double t = s + p;
        const double z = t - s;
        const double se = (s - (t - z)) + (p - z);
        s = t;
        c += se + pe;
    }
    return s + c;
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
    const size_t comps = (t == TRN_DTYPE_C32F || t == TRN_DTYPE_C64F) ? 2 : 1;
    const int single = t == TRN_DTYPE_R32F || t == TRN_DTYPE_C32F;
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

void trn_solver_copy(int rows, int cols, size_t es, const void *src, int lds, void *dst, int ldd) {
    if (rows <= 0 || cols <= 0)
        return;
    for (int j = 0; j < cols; j++)
        memmove((char *)dst + (size_t)j * (size_t)ldd * es,
                (const char *)src + (size_t)j * (size_t)lds * es, (size_t)rows * es);
}
