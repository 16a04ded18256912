/*
 * shard_range.c — the ranges shards of an op take (cpu_kernels.h). Its own
 * file because libtrnsci links it too, with the random-number kernels its
 * host generators run (client/rand_host.c).
 */
#include "kernels/cpu/cpu_kernels.h"

void trn_cpu_shard_range(size_t total, int shard, int nshards, size_t *lo, size_t *hi) {
    const size_t n = (size_t)(nshards > 0 ? nshards : 1);
    const size_t s = (size_t)shard;
    const size_t base = total / n, extra = total % n;
    *lo = s * base + (s < extra ? s : extra);
    *hi = *lo + base + (s < extra ? 1 : 0);
}
