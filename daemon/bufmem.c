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

void *trn_bufmem_heap(uint64_t bytes) {
    return bytes <= SIZE_MAX ? calloc(1, (size_t)bytes) : NULL;
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
    else if (mapped)
        munmap(data, (size_t)bytes);
    else
        free(data);
}
