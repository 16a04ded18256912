/*
 * nc_cost.h — what work on a NeuronCore is estimated to cost, for the
 * scheduler: how long a GEMM program runs before any of its runs was
 * measured, and how long moving bytes into a core's memory takes.
 *
 * Nominal figures stand until there are measurements. A program's own runs
 * then replace its estimate (scheduler/run_times.h), and the executors'
 * timed writes replace the nominal move rate (trn_nc_traffic). The nominal
 * compute rates are the published per-chip peaks divided by the chip's
 * NeuronCores; the dispatch and move figures are round estimates, not yet
 * measured on hardware (docs/neuron.md, "Cost model").
 */
#ifndef TRN_KERNELS_NEURON_NC_COST_H
#define TRN_KERNELS_NEURON_NC_COST_H

#include <stdint.h>

#include "kernels/neuron/nc_runtime.h"
#include "kernels/neuron/program.h"

/* Per execution: the runtime's dispatch. */
#define TRN_NC_NOMINAL_DISPATCH_NS 20000.0
/* Host memory to a core's memory, before the executors measured it. */
#define TRN_NC_NOMINAL_MOVE_BYTES_PER_NS 16.0
/* Writes at least this big are timed for the measured move rate: a
 * smaller one (alpha and beta) is mostly its call's latency. */
#define TRN_NC_TIMED_MIN_BYTES (64u << 10)
/* Timed bytes the measured rate needs before it is believed. */
#define TRN_NC_RATE_MIN_BYTES (1u << 20)

/* The rate at which bytes move into a core's memory, in bytes per ns:
 * measured from traffic when it has timed enough, else nominal. traffic
 * may be NULL. */
double trn_nc_move_bytes_per_ns(const trn_nc_traffic *traffic);

/* Notes a write of n bytes to a core that took ns (counted when n is at
 * least TRN_NC_TIMED_MIN_BYTES). traffic may be NULL. */
void trn_nc_note_timed_write(trn_nc_traffic *traffic, uint64_t n, uint64_t ns);

/* A move to a core: writes n bytes of host to the start of device tensor
 * t, and on success counts them in rt->traffic's to_cores and notes how
 * long they took (trn_nc_note_timed_write). */
trn_nrt_status trn_nc_move_to_core(const trn_nc_runtime *rt, trn_nrt_tensor *t, const void *host,
                                   size_t n);

/* The nominal time of nexec executions of the program of one execution,
 * exec, for target "trn1" or "trn2" (another: trn1's rates): per
 * execution a dispatch, its FLOPs at the mode's peak rate, and its
 * operands and result at move_bytes_per_ns, one after the other. Peak
 * rates make the compute a lower bound; counting every move, without
 * overlap or residency, makes the moves an upper bound. */
double trn_nc_gemm_estimate_ns(const trn_nprog_gemm *exec, int nexec, const char *target,
                               double move_bytes_per_ns);

#endif
