/*
 * models/fft.c — cost and shard limit of trnfft transforms.
 */
#include <math.h>

#include "ops/fft_step.h"
#include "ops/models/model.h"

/* The usual 5 N log2 N flops of a complex transform of N points; a real
 * transform is half of that. */
static double cost_fft(const trn_op_desc *op) {
    const trn_fft_desc *f = &op->u.fft;
    if (f->fftstep_kind != TRN_FFTSTEP_NONE)
        return trn_fftstep_flops(f);
    const int complex = f->type == TRN_FFT_C2C || f->type == TRN_FFT_Z2Z ||
                        f->type == TRN_FFT_C2C_16F || f->type == TRN_FFT_C2C_16BF;
    const double n = f->points > 1.0 ? f->points : 2.0;
    return (complex ? 5.0 : 2.5) * n * log2(n) * (double)f->batch;
}

/* Whole transforms only: a batch splits, a single transform does not, but
 * a step of one cut into steps (ops/fft_step.h) splits into its tasks. */
static double shard_limit_fft(const trn_op_desc *op) {
    if (op->u.fft.fftstep_kind != TRN_FFTSTEP_NONE)
        return (double)trn_fftstep_tasks(&op->u.fft);
    return trn_op_min(cost_fft(op) / TRN_SHARD_FFT_MIN_FLOP, (double)op->u.fft.batch);
}

/* The table's entries (ops/models/model.h). */
TRN_OP_MODEL(fft, TRN_PACE_FFT)
