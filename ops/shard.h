/*
 * shard.h — the sharding policy: how many shards an op's size allows, and
 * the measurements behind the numbers.
 *
 * An op is split when each shard still carries enough work that running it
 * on another worker pays for the split: nshards = min(the workers of the
 * op's engine, what the op's size allows). What the size allows is
 * trn_op_shard_limit (ops/op.h), one function per kind beside its cost in
 * ops/models/<family>.c:
 *   GEMM:        cost / TRN_SHARD_GEMM_MIN_FLOP and n / TRN_SHARD_GEMM_MIN_COLS
 *                (shards are blocks of C's columns, kernels/cpu/blas_gemm.c);
 *                cost is trn_op_cost, or m*n when A and B are not read;
 *   rand:        trn_op_cost / TRN_SHARD_RAND_MIN_BYTES (ranges of
 *                elements split at even indices, kernels/cpu/rand.c);
 *   memset/copy: trn_op_cost / TRN_SHARD_MEM_MIN_BYTES (byte ranges,
 *                kernels/cpu/memops.c); a copy whose source and destination
 *                overlap is one shard (memmove's guarantee holds only within
 *                one call, and the CPU kernel would give all of it to shard 0);
 *   BLAS1:       1 (Level 1 is memory-bound, and one shard keeps dot/nrm2/
 *                asum bitwise reproducible whatever the core count);
 *   BLAS2:       GEMV, GER, GERC: bytes of A / TRN_SHARD_BLAS2_MIN_BYTES,
 *                whole output tiles only (trn_blas2_tiles); the others 1;
 *   BLAS3:       trn_op_cost / TRN_SHARD_GEMM_MIN_FLOP (geam, dgmm:
 *                trn_op_cost / TRN_SHARD_MEM_MIN_BYTES), and no more than
 *                the op's output tiles (trn_blas3_tiles; kernels/cpu/blas3.c
 *                gives each shard whole tiles);
 *   FFT:         trn_op_cost / TRN_SHARD_FFT_MIN_FLOP, whole transforms; a
 *                single large transform's steps: their tasks (ops/fft_step.h);
 *   sparse:      trn_op_cost / TRN_SHARD_SPARSE_MIN_COST, up to the parts
 *                its split allows (ops/sparse.c);
 *   tensor:      contractions like GEMM, element-wise ops like copies;
 *   batched solvers: by GEMM's flops, whole matrices;
 *   other ops:   1.
 * Nothing else enters: not queue lengths, not idle workers, not timing. The
 * same request on the same core count is therefore always cut the same way,
 * and so computes bitwise the same result.
 *
 * The minimums come from bench/bench_shard_split (docs/benchmarks.md has the
 * table: medians of three runs on the 2-vCPU development VM, OpenBLAS 0.3.21
 * Haswell kernels). Per op it measures the speedup of two shards on two idle
 * workers, and the split cost: the extra time of both shards run one after
 * the other on one core, which is what a split costs when every core is busy
 * with other work anyway.
 *  - GEMM, by cost. Split, square S/D/Z GEMMs of 4-113 MFLOP ran 1.25-1.7x
 *    faster on idle cores (1.7-1.8x from 57 MFLOP) and cost 0-5 % more CPU
 *    time at every size. Below about 30 MFLOP the time saved is under
 *    0.1-0.25 ms per op, while the split still costs those few percent, and
 *    a hand-off to another worker, whenever other clients keep the cores
 *    busy. So a shard must carry TRN_SHARD_GEMM_MIN_FLOP = 16 MFLOP (0.3 ms
 *    of SGEMM, 0.6 ms of DGEMM on one core here): two cores split a GEMM from
 *    32 MFLOP. This also keeps every shard far above the sizes for which
 *    OpenBLAS has separate small-matrix kernels (about 1e6 m*n*k on AVX-512
 *    builds), so a shard never takes another code path than the whole op.
 *  - GEMM, by width. Each shard packs all of op(A) again, which weighs more
 *    the narrower the shard and the larger m*k: with m = k = 1024 the split
 *    cost was 9-12 % at 48 columns per shard, 5-7 % at 96, 5 % at 128 and
 *    3-5 % from 160 on. TRN_SHARD_GEMM_MIN_COLS = 128 keeps it near 5 %.
 *  - Level 2 (GEMV, GER/GERC), by the bytes of A: they read each element
 *    of A once, so they run at the memory bandwidth the cores share, and a
 *    split costs no extra CPU time (each tile reads x again, nothing else).
 *    bench/blas2_split.c (two pinned threads, each half of a DGEMV or DGER)
 *    gained 1.2-1.9x from 32 MiB of A in one run, but when the other vCPU
 *    was busy with other processes the half that waited for it made 32 MiB
 *    ops 3-4x slower (median of 8 runs 0.27-0.35x), 128 MiB ones broke even
 *    (1.0-1.1x) and 512 MiB ones gained (1.16-1.22x). So a shard
 *    must read TRN_SHARD_BLAS2_MIN_BYTES = 64 MiB: two cores split a DGEMV
 *    from 4096 x 4096. The other Level 2 routines are one shard.
 *  - memset/copy. Split in two, a 2 MiB memset ran 1.1x faster, a 4 MiB one
 *    1.65x; a 1 MiB copy 1.16x, a 2 MiB one 1.8x. Counted in bytes touched
 *    (trn_op_cost: a copy touches each byte twice) both become worth
 *    splitting at 4 MiB, so TRN_SHARD_MEM_MIN_BYTES = 2 MiB per shard. */
#ifndef TRN_OPS_SHARD_H
#define TRN_OPS_SHARD_H

#include <stddef.h>

/* The constants. Each is a minimum per shard: an op gets as many shards as
 * its engine has workers, but no more than its size allows. */
#define TRN_SHARD_GEMM_MIN_FLOP 16e6 /* trn_op_cost of one GEMM shard */
#define TRN_SHARD_GEMM_MIN_COLS 128  /* columns of C in one GEMM shard */
/* trn_op_cost of one memset/copy shard: the bytes it touches (a memset
 * writes them; a copy reads and writes, so counts each byte twice). */
#define TRN_SHARD_MEM_MIN_BYTES ((size_t)2 << 20)
/* trn_op_cost of one random-number shard: 1 MiB of raw words or uniforms
 * (0.7-1 ms of one core at the kernel's measured 1.1-1.4 GB/s), 128 KiB of
 * normals (their bytes count 8: ops/rand.c). */
#define TRN_SHARD_RAND_MIN_BYTES ((size_t)1 << 20)

/* Bytes of A one Level 2 shard (GEMV, GER/GERC) reads (measured with
 * bench/blas2_split.c, above). */
#define TRN_SHARD_BLAS2_MIN_BYTES ((size_t)64 << 20)

/* trn_op_cost (5 N log2 N per complex transform) of one FFT shard: about
 * 0.5-1 ms of FFTW on one core here. A shard holds whole transforms of a
 * batch; one transform is split only as the steps of ops/fft_step.h. */
#define TRN_SHARD_FFT_MIN_FLOP 8e6

/* trn_op_cost of one trnsparse shard (ops/sparse.c: FLOPs, bytes touched
 * for conversions): 0.15-0.5 ms of one core at the 1-3 GFLOP/s (or GB/s) a
 * sparse product or conversion runs at here (memory-bound; docs/benchmarks.md,
 * "trnsparse"), the same order as a GEMM shard's (TRN_SHARD_GEMM_MIN_FLOP at
 * ~100 GFLOP/s), so waking a second worker (~20 us) costs a few percent of
 * the shard. Splits follow ops/sparse.c (sparse_split). */
#define TRN_SHARD_SPARSE_MIN_COST 5e5

#endif
