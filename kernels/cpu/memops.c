/*
 * memops.c — memset and device-to-device copy on the CPU backend.
 *
 * A copy whose source and destination overlap cannot be split: shards run
 * concurrently, and memmove's guarantee holds only within one call. So for an
 * overlapping copy shard 0 moves everything and the other shards do nothing.
 * Zero-byte ops may carry NULL pointers and touch nothing.
 */
#include <string.h>

#include "kernels/cpu/cpu_kernels.h"

trn_kstatus trn_cpu_memset(const trn_memset_desc *d, int shard, int nshards) {
    size_t lo, hi;
    trn_cpu_shard_range(d->bytes, shard, nshards, &lo, &hi);
    if (hi > lo)
        memset((unsigned char *)d->dst + lo, d->value, hi - lo);
    return TRN_KSTATUS_OK;
}

trn_kstatus trn_cpu_copy(const trn_copy_desc *d, int shard, int nshards) {
    const unsigned char *src = d->src;
    unsigned char *dst = d->dst;
    if (d->bytes == 0)
        return TRN_KSTATUS_OK;
    const int overlap = (dst < src + d->bytes) && (src < dst + d->bytes);
    if (overlap) {
        if (shard == 0)
            memmove(dst, src, d->bytes);
        return TRN_KSTATUS_OK;
    }
    size_t lo, hi;
    trn_cpu_shard_range(d->bytes, shard, nshards, &lo, &hi);
    if (hi > lo)
        memcpy(dst + lo, src + lo, hi - lo);
    return TRN_KSTATUS_OK;
}

/* The backend's entries (cpu_kernels.h). */
TRN_CPU_ENTRY(memset, trn_cpu_memset(&op->u.memset, shard, nshards))
TRN_CPU_ENTRY(copy, trn_cpu_copy(&op->u.copy, shard, nshards))
