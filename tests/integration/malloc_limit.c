/*
 * malloc_limit.c — an LD_PRELOAD library for fault tests: malloc of more
 * than $TRNSCI_TEST_MALLOC_LIMIT bytes fails with ENOMEM; everything else
 * goes to the allocator the process would have used (jemalloc, ASan's, or
 * glibc's). Loaded into a daemon, it makes a kernel's workspace allocation
 * fail while buffers (shared memory on the local transport) and the
 * daemon's small allocations succeed.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>

typedef void *(*malloc_fn)(size_t);

void *malloc(size_t n) {
    static malloc_fn real;
    static size_t limit;
    static __thread int resolving;
    if (!real) {
        if (resolving) /* dlsym allocating: let it fail rather than recurse */
            return NULL;
        resolving = 1;
        real = (malloc_fn)dlsym(RTLD_NEXT, "malloc");
        resolving = 0;
        const char *v = getenv("TRNSCI_TEST_MALLOC_LIMIT");
        limit = v ? strtoull(v, NULL, 10) : 0;
    }
    if (limit && n > limit) {
        errno = ENOMEM;
        return NULL;
    }
    return real(n);
}
