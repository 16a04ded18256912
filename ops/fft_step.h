/*
 * fft_step.h — one large FFT on every core: a single transform cut into two
 * steps of independent tile tasks, which the scheduler runs one after the
 * other, each step's tasks spread over the cores (trn_sched_op.steps;
 * daemon/service_fftstep.c builds the sequence, kernels/<backend>/ run the
 * tasks). A batch of transforms is already split by whole transforms
 * (ops/models/fft.c); this is for a batch of one.
 *
 * Every step sees its data as a rows x cols row-major matrix of complex
 * elements and runs FFTs of a smaller size planned like any other (a plan
 * of the plan cache, the same plan on every core):
 *
 *   COLS     1D only. in is n1 x n2 (x[j1 n2 + j2]); each column j2 is
 *            transformed over j1 (length n1), multiplied by the twiddle
 *            W_n^(j2 k1), and written contiguously at out[j2 n1 + k1].
 *            Tasks: blocks of `block` columns.
 *   PENCILS  the columns of a rows x cols matrix transformed over the rows
 *            (length rows), from in to out at the same places (in == out:
 *            in place). Tasks: blocks of `block` columns.
 *   SLABS    2D/3D. in and out are n0 slabs (slab s at in + s idist and
 *            out + s odist); each slab gets the transform over the inner
 *            dimensions, in to out (R2C/D2Z: the real slab to its
 *            Hermitian half, cols points; C2R/Z2D: the half to the real
 *            slab). Tasks: blocks of `block` slabs.
 *
 * 1D, n = n1 n2 (four-step: Bailey's decomposition with the transpose folded
 * into the writes): COLS on in (n1 x n2) into out, then PENCILS in place on
 * out seen as n2 x n1, which leaves X[k1 + n1 k2] at out[k2 n1 + k1]:
 * the natural order. Each PENCILS task reads and writes only its own
 * columns, so no scratch array is needed out of place. In place (in ==
 * out), COLS would overwrite columns other tasks have still to read: COLS
 * writes a scratch array of n elements owned by the op, and PENCILS reads
 * it and writes out at the same places. 2D/3D (n0 x inner): SLABS, then
 * PENCILS in place on out seen as n0 x inner (the outer dimension's FFTs
 * across pencils; for R2C/D2Z inner is the Hermitian half's points, and
 * the step is a C2C/Z2Z one). 2D/3D C2R/Z2D runs them the other way round:
 * PENCILS, inverse, in place on the input (n0 x the Hermitian half's
 * points; cuFFT's C2R may overwrite its input), then SLABS, each half slab
 * to its real slab in the output. In place, a real slab is its Hermitian
 * half's bytes (the rows of the last dimension padded to 2 (last / 2 + 1)
 * reals, cuFFT's in-place layout), so SLABS transforms each slab where it
 * is and PENCILS runs on the contiguous complex side, as out of place.
 *
 * 1D R2C/D2Z of n = 2m points: the n reals are m complex
 * numbers z[j] = x[2j] + i x[2j+1]; COLS and PENCILS (complex, m = n1 n2)
 * leave Z = DFT_m(z) in out[0 .. m), and
 *   R2C_POST out[k] and out[m - k] for k = 0 .. m/2 from Z[k] and
 *            Z[(m - k) mod m]: X[k] = E - i W_n^k O with E = (Z[k] +
 *            conj Z[m-k]) / 2, O = (Z[k] - conj Z[m-k]) / 2 (the even
 *            and odd samples' transforms), in place; no plan. Tasks: blocks
 *            of TRN_FFTSTEP_POST_BLOCK pairs.
 * 1D C2R/Z2D of n = 2m (the input is overwritten, as cuFFT's C2R may):
 *   C2R_PRE  in place on in: Z[k] = (X[k] + conj X[m-k]) + i W_n^-k (X[k] -
 *            conj X[m-k]) for the pairs k, m - k (k = 0 .. m/2); no plan.
 * then COLS (in to out) and PENCILS, inverse, leave n x[2j] + i n x[2j+1]
 * at out[j]: the unnormalised C2R result. In place (cuFFT's layout: the n
 * reals in the first n of the m + 1 complex elements' bytes), COLS writes
 * a scratch array of m elements and PENCILS reads it, as for a complex
 * transform in place; R2C_POST and C2R_PRE are in place anyway, each task
 * reading and writing its own pairs k, m - k.
 *
 * Tiles gather and scatter: a COLS or PENCILS task copies its block of
 * columns into a contiguous workspace (block columns x rows), transforms
 * each there with the plan for contiguous data, and writes them back: the
 * transposes are inside the tasks, not on the copy engine (a stage of its
 * own would need the intermediate twice and a third pass over memory).
 *
 * Determinism: the steps and their tasks are a pure function of the shape,
 * the type and the direction (never of the core count or the load); each
 * element of a step's output is written by one task, computed by the same
 * plan and the same twiddle (a function of its indices alone) whichever
 * shard runs it. So the result is bitwise the same on any number of cores,
 * given the same sub-plans (FFTW wisdom, or the estimate planner).
 *
 * Backend-neutral: descriptors and tiles; a step is a trn_fft_desc with
 * fftstep_* set, whose plan is the sub-transform's.
 */
#ifndef TRN_OPS_FFT_STEP_H
#define TRN_OPS_FFT_STEP_H

#include <stddef.h>

#include "ops/fft.h"

typedef enum trn_fftstep_kind {
    TRN_FFTSTEP_NONE = 0,
    TRN_FFTSTEP_COLS = 1,
    TRN_FFTSTEP_PENCILS = 2,
    TRN_FFTSTEP_SLABS = 3,
    TRN_FFTSTEP_R2C_POST = 4,
    TRN_FFTSTEP_C2R_PRE = 5,
} trn_fftstep_kind;

#define TRN_FFTSTEP_MAX_STEPS 3
/* Pairs of elements per R2C_POST or C2R_PRE task. */
#define TRN_FFTSTEP_POST_BLOCK 8192

/* A single transform is cut into steps from this many points (any rank).
 * Measured on the 2-vCPU development VM (bench/run_fft_parallel.sh --log2n;
 * docs/numerics.md, "Parallel single transforms"; preliminary, a shared
 * machine): at 2^18 the steps on one core took 1.8 ms against 2.2 ms for
 * FFTW's plan of the whole transform; at 2^16 a whole transform takes
 * 0.25-0.3 ms, where the second dispatch and pass over memory the steps
 * cost are not won back. */
#define TRN_FFTSTEP_MIN_POINTS (1 << 18)
/* The smallest factor (1D: n1 <= n2) and outer dimension (2D/3D: n0, and
 * the inner points) a split may have: below it a step's FFTs are too short
 * to be worth a pass over memory of their own. */
#define TRN_FFTSTEP_MIN_FACTOR 16
/* Bytes of one task's workspace a COLS or PENCILS block aims at (its
 * columns gathered contiguously): half the 1 MiB L2 of the cores measured. */
#define TRN_FFTSTEP_TILE_BYTES ((size_t)512 << 10)
/* Points one SLABS task aims at. */
#define TRN_FFTSTEP_SLAB_POINTS (1 << 16)

/* The largest scratch array one op may own (1D in place): 2^26 Z2Z points.
 * A larger in-place 1D transform runs on one core. */
#define TRN_FFTSTEP_MAX_SCRATCH ((size_t)1 << 30)

/* The number of steps a batch of `batch` transforms of shape with the given
 * variant (TRN_FFT_VARIANT_* bits) is cut into: 2, or 0 when it runs as
 * one op (3 for 1D R2C/D2Z and C2R/Z2D). Only a batch of one C2C or Z2Z
 * transform (or a real one, R2C/D2Z or C2R/Z2D) of the basic
 * layout (or an equal advanced one) of
 * at least TRN_FFTSTEP_MIN_POINTS points that
 * factors (1D: n1 = its largest divisor up to sqrt(n), at least
 * TRN_FFTSTEP_MIN_FACTOR, and in place a scratch array within
 * TRN_FFTSTEP_MAX_SCRATCH; 2D/3D: n0 and the inner points at least
 * TRN_FFTSTEP_MIN_FACTOR) is split. A function of its arguments alone. */
int trn_fftstep_count(const trn_fft_shape *shape, size_t batch, unsigned variant);

/* Bytes of the scratch array the op's steps need (1D in place: n complex
 * elements, n / 2 for a real transform), or 0. */
size_t trn_fftstep_scratch_bytes(const trn_fft_shape *shape, unsigned variant);

/* 1D: the number of rows n1 of the n1 x n2 split of n (the largest divisor
 * of n not above sqrt(n)). */
int trn_fftstep_factor(int n);

/* Step s (0 .. count - 1) of the whole op: its descriptor (plan NULL: the
 * caller sets the sub-plan's) and the shape its plan is made for (the
 * step's variant, d->variant, is that plan's part; sub->rank 0: the step
 * runs no plan). scratch: the op's
 * scratch array of trn_fftstep_scratch_bytes (NULL when that is 0). */
void trn_fftstep_step(const trn_fft_shape *shape, const trn_fft_desc *whole, int s, void *scratch,
                      trn_fft_desc *d, trn_fft_shape *sub);

/* The number of tasks of step d. */
size_t trn_fftstep_tasks(const trn_fft_desc *d);

/* The columns (COLS, PENCILS) or slabs (SLABS) [lo, hi) task t covers. */
void trn_fftstep_task(const trn_fft_desc *d, size_t t, size_t *lo, size_t *hi);

/* The flops of step d (5 m log2 m per complex FFT of m points, 6 per
 * twiddle multiply). */
double trn_fftstep_flops(const trn_fft_desc *d);

#endif
