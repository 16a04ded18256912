/*
 * bufmem.c — see bufmem.h.
 */
#define _GNU_SOURCE
#include "daemon/bufmem.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* Below this a buffer cannot hold a huge page. */
#define TRN_BUFMEM_HUGE_MIN ((uint64_t)2 << 20)

/* From this size a heap buffer is its own anonymous mapping (zero pages,
 * faulted in as touched, returned at once when freed); below it, page-aligned
 * heap memory zeroed here. */
#define TRN_BUFMEM_HEAP_MAP_MIN ((uint64_t)64 << 10)
#define TRN_BUFMEM_PAGE 4096u

void *trn_bufmem_heap(uint64_t bytes) {
    if (bytes > SIZE_MAX)
        return NULL;
    if (bytes >= TRN_BUFMEM_HEAP_MAP_MIN) {
        void *p =
            mmap(NULL, (size_t)bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        return p == MAP_FAILED ? NULL : p;
    }
    void *p = NULL;
    if (posix_memalign(&p, TRN_BUFMEM_PAGE, bytes ? (size_t)bytes : 1) != 0)
        return NULL;
    memset(p, 0, (size_t)bytes);
    return p;
}

void *trn_bufmem_shared(uint64_t bytes, trn_exec_space *sp, int *fd, char *err, size_t errlen) {
    *fd = -1;
    if (bytes > (uint64_t)INT64_MAX || bytes > SIZE_MAX) {
        snprintf(err, errlen, "Alloc of %llu bytes is too large", (unsigned long long)bytes);
        return NULL;
    }
    const int mfd = memfd_create("trnsci-buffer", MFD_CLOEXEC | MFD_ALLOW_SEALING);
    if (mfd < 0)
        goto fail;
    if (ftruncate(mfd, (off_t)bytes) != 0)
        goto fail_fd;
    /* Sealed before it is mapped anywhere else (the executors, the client). */
    if (fcntl(mfd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL) != 0)
        goto fail_fd;
    void *p = sp ? trn_exec_space_map(sp, mfd, bytes)
                 : mmap(NULL, (size_t)bytes, PROT_READ | PROT_WRITE, MAP_SHARED, mfd, 0);
    if (!p || p == MAP_FAILED)
        goto fail_fd;
    if (bytes >= TRN_BUFMEM_HUGE_MIN)
        (void)madvise(p, (size_t)bytes, MADV_HUGEPAGE); /* advice only (bufmem.h) */
    *fd = mfd;
    return p;
fail_fd:
    close(mfd);
fail:
    snprintf(err, errlen, "Alloc of %llu bytes of shared memory failed: %s",
             (unsigned long long)bytes, strerror(errno));
    return NULL;
}

void trn_bufmem_release(void *data, uint64_t bytes, int mapped, trn_exec_space *sp) {
    if (mapped && sp)
        trn_exec_space_unmap(sp, data, bytes);
    else if (mapped || bytes >= TRN_BUFMEM_HEAP_MAP_MIN)
        munmap(data, (size_t)bytes);
    else
        free(data);
}
