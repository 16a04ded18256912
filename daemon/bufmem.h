/*
 * bufmem.h — the memory behind a buffer: zeroed heap memory (gRPC sessions),
 * or a sealed memfd mapped by both the daemon and the client (local sessions:
 * zero copy).
 *
 * Safety of shared buffers: the memfd is sealed with F_SEAL_SHRINK,
 * F_SEAL_GROW and F_SEAL_SEAL before its descriptor leaves the daemon, so the
 * client cannot truncate it (which would make the daemon's accesses fault
 * with SIGBUS) or lift the seals. Its size is fixed, and every access is
 * bounds-checked against that size in validate.c.
 *
 * Page faults: on the virtual machines this was measured on a fault costs
 * 10-50 us, so the first touch of a large buffer (by the client writing it,
 * then by the daemon's kernel reading it) costs seconds per few hundred MB.
 * Shared buffers of 2 MiB and more are advised to use transparent huge
 * pages (MADV_HUGEPAGE), which the kernel honours for shared memory when
 * /sys/kernel/mm/transparent_hugepage/shmem_enabled is "advise" (or
 * "within_size"/"always"): 512 times fewer faults. With the default "never"
 * the advice does nothing (docs/operations.md, "Huge pages").
 */
#ifndef TRN_DAEMON_BUFMEM_H
#define TRN_DAEMON_BUFMEM_H

#include <stddef.h>
#include <stdint.h>

#include "daemon/exec_space.h"

/* Zeroed memory of this process only, page-aligned (the write clock,
 * ops/write_clock.h, tracks buffers by page: two buffers never share one).
 * Returns NULL when out of memory. */
void *trn_bufmem_heap(uint64_t bytes);

/* A sealed memfd of `bytes` bytes mapped read-write and shared — in sp
 * (at the same address in every executor) when sp is not NULL. Returns the
 * mapping and sets *fd, or returns NULL with err written. */
void *trn_bufmem_shared(uint64_t bytes, trn_exec_space *sp, int *fd, char *err, size_t errlen);

/* Releases memory from either function (mapped: from trn_bufmem_shared,
 * with the same sp). */
void trn_bufmem_release(void *data, uint64_t bytes, int mapped, trn_exec_space *sp);

#endif
