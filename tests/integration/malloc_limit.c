/*
 * malloc_limit.c — an LD_PRELOAD library for fault tests: an allocation of
 * more than $TRNSCI_TEST_MALLOC_LIMIT bytes through malloc, calloc,
 * realloc, aligned_alloc, posix_memalign or memalign fails with ENOMEM;
 * everything else goes to the allocator the process would have used
 * (jemalloc, ASan's, or glibc's). Loaded into a daemon, it makes a
 * kernel's workspace allocation fail while buffers (shared memory on the
 * local transport) and the daemon's small allocations succeed. All the
 * entry points are limited because kernels use each of them (calloc for
 * zeroed accumulators, FFTW's fftw_malloc memalign or posix_memalign),
 * and with jemalloc they do not go through malloc.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

typedef void *(*malloc_fn)(size_t);
typedef void *(*calloc_fn)(size_t, size_t);
typedef void *(*realloc_fn)(void *, size_t);
typedef void *(*aligned_fn)(size_t, size_t);
typedef int (*posix_memalign_fn)(void **, size_t, size_t);

static malloc_fn real_malloc;
static calloc_fn real_calloc;
static realloc_fn real_realloc;
static aligned_fn real_aligned_alloc, real_memalign;
static posix_memalign_fn real_posix_memalign;
static size_t limit;
static int resolved;
static __thread int resolving;

/* Finds the next definitions once. dlsym may itself allocate (calloc for
 * its error state): those calls, made while resolving, get NULL rather than
 * recurse, which dlsym tolerates. */
static int resolve(void) {
    if (resolved)
        return 1;
    if (resolving)
        return 0;
    resolving = 1;
    real_malloc = (malloc_fn)dlsym(RTLD_NEXT, "malloc");
    real_calloc = (calloc_fn)dlsym(RTLD_NEXT, "calloc");
    real_realloc = (realloc_fn)dlsym(RTLD_NEXT, "realloc");
    real_aligned_alloc = (aligned_fn)dlsym(RTLD_NEXT, "aligned_alloc");
    real_memalign = (aligned_fn)dlsym(RTLD_NEXT, "memalign");
    real_posix_memalign = (posix_memalign_fn)dlsym(RTLD_NEXT, "posix_memalign");
    const char *v = getenv("TRNSCI_TEST_MALLOC_LIMIT");
    limit = v ? strtoull(v, NULL, 10) : 0;
    resolving = 0;
    resolved = 1;
    return 1;
}

static int over(size_t n) {
    return limit && n > limit;
}

void *malloc(size_t n) {
    if (!resolve())
        return NULL;
    if (over(n)) {
        errno = ENOMEM;
        return NULL;
    }
    return real_malloc(n);
}

void *calloc(size_t count, size_t size) {
    if (!resolve())
        return NULL;
    size_t n;
    if (!__builtin_mul_overflow(count, size, &n) && over(n)) {
        errno = ENOMEM;
        return NULL;
    }
    return real_calloc(count, size); /* an overflowing product fails there */
}

void *realloc(void *p, size_t n) {
    if (!resolve())
        return NULL;
    if (over(n)) {
        errno = ENOMEM;
        return NULL;
    }
    return real_realloc(p, n);
}

void *aligned_alloc(size_t alignment, size_t n) {
    if (!resolve())
        return NULL;
    if (over(n)) {
        errno = ENOMEM;
        return NULL;
    }
    return real_aligned_alloc(alignment, n);
}

void *memalign(size_t alignment, size_t n) {
    if (!resolve())
        return NULL;
    if (over(n)) {
        errno = ENOMEM;
        return NULL;
    }
    return real_memalign(alignment, n);
}

int posix_memalign(void **out, size_t alignment, size_t n) {
    if (!resolve())
        return ENOMEM;
    if (over(n))
        return ENOMEM;
    return real_posix_memalign(out, alignment, n);
}
