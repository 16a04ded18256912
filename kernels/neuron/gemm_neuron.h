/*
 * gemm_neuron.h — GEMMs on a NeuronCore: which GEMMs the gemm kernel
 * program runs (program.h), and running one: its operands packed into the
 * program's layouts in host memory, moved to the core's memory by DMA
 * (nrt_tensor_write), the program executed, the result moved back and
 * unpacked into C.
 */
#ifndef TRN_KERNELS_NEURON_GEMM_NEURON_H
#define TRN_KERNELS_NEURON_GEMM_NEURON_H

#include "kernels/neuron/nc_runtime.h"
#include "kernels/neuron/program.h"
#include "ops/blas.h"

/* Whether the gemm program runs d, and its parameters: S and C GEMMs
 * (single, strided or pointer-array batches) in FP32, BF16 (without
 * stochastic rounding) and BF16x3 modes that read A and B. Everything else
 * (FP64, the other modes, alpha = 0 or k = 0) stays on the CPU backend. */
int trn_ngemm_program(const trn_gemm_desc *d, trn_nprog_gemm *g);

/* Runs d with the program loaded in ld on its core. Returns
 * TRN_KSTATUS_OK, NO_MEMORY (host staging), or FAILED with msg. */
trn_kstatus trn_ngemm_run(const trn_nrt_api *api, trn_nc_loaded *ld, const trn_gemm_desc *d,
                          const trn_nprog_gemm *g, char *msg, size_t msglen);

#endif
