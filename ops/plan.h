/*
 * plan.h — what a plan is made for: the plan cache's key (FFT transforms,
 * tensor contractions).
 */
#ifndef TRN_OPS_PLAN_H
#define TRN_OPS_PLAN_H

#include "ops/fft.h"
#include "ops/tensor.h"

/* What a plan is prepared for: the plan cache's key (with the backend's
 * version): FFT transforms, tensor contractions, and kernel programs an
 * accelerator backend compiles for an op's shape (a NEFF on a NeuronCore). */
typedef enum trn_plan_family {
    TRN_PLAN_FFT = 1,
    TRN_PLAN_TENSOR = 2,
    TRN_PLAN_PROGRAM = 3,
} trn_plan_family;

/* A kernel program: the kernel's name and its parameter text (the backend's
 * contract, e.g. kernels/neuron/program.h); both printable, without
 * newlines, the name without spaces. */
#define TRN_PLAN_PROGRAM_NAME_LEN 32
#define TRN_PLAN_PROGRAM_PARAMS_LEN 384 /* a GEMM sequence of 8 nodes fits */
typedef struct trn_program_spec {
    char kernel[TRN_PLAN_PROGRAM_NAME_LEN];
    char params[TRN_PLAN_PROGRAM_PARAMS_LEN];
} trn_program_spec;

/* Longest plan key (with its NUL): an FFT's is under 100 bytes, a tensor
 * contraction's names every mode's extent and stride. */
#define TRN_PLAN_KEY_LEN 640

typedef struct trn_plan_spec {
    trn_plan_family family;
    trn_plan_effort effort;
    union {
        trn_fft_shape fft;
        trn_tensor_contract_spec tensor;
        trn_program_spec program;
    } u;
} trn_plan_spec;

#endif
