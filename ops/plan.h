/*
 * plan.h — what a plan is made for: the plan cache's key (FFT transforms,
 * tensor contractions).
 */
#ifndef TRN_OPS_PLAN_H
#define TRN_OPS_PLAN_H

#include "ops/fft.h"
#include "ops/tensor.h"

/* What a plan is prepared for: the plan cache's key (with the backend's
 * version): FFT transforms and tensor contractions. */
typedef enum trn_plan_family { TRN_PLAN_FFT = 1, TRN_PLAN_TENSOR = 2 } trn_plan_family;

/* Longest plan key (with its NUL): an FFT's is under 100 bytes, a tensor
 * contraction's names every mode's extent and stride. */
#define TRN_PLAN_KEY_LEN 640

typedef struct trn_plan_spec {
    trn_plan_family family;
    trn_plan_effort effort;
    union {
        trn_fft_shape fft;
        trn_tensor_contract_spec tensor;
    } u;
} trn_plan_spec;

#endif
