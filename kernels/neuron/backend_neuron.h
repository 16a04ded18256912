/*
 * backend_neuron.h — the Neuron backend: NeuronCores through the Neuron
 * runtime (libnrt, opened with dlopen), with the CPU backend beside it for
 * what has no Neuron kernel.
 *
 * Placement (hybrid): an op whose kind has a kernel program
 * (kernels/neuron/nki/, today the GEMM family in FP32, BF16 and BF16x3)
 * runs on a NeuronCore from a NEFF compiled for its shape; every other op,
 * FP64 included, runs on the host's CPU through the CPU backend, from the
 * same worker. The NEFF is a plan (kernels/backend.h, op_plan): the plan
 * cache compiles it on its compile threads with the Neuron compiler, off the
 * request path, and keeps it in a content-addressed store on disk
 * (neff_store.h) that outlives the daemon; each process that runs it loads
 * it onto its core once and keeps it resident (nc_runtime.h).
 *
 * Who owns the cores: with executors, each executor process starts the
 * runtime on its own core (NEURON_RT_VISIBLE_CORES = that core) in
 * core_init; without, the daemon's process starts it on all of them at
 * create. Either way, create first asks the runtime in a child process
 * which cores it may have, and fails with the runtime's own message when
 * they are taken.
 */
#ifndef TRN_KERNELS_NEURON_BACKEND_NEURON_H
#define TRN_KERNELS_NEURON_BACKEND_NEURON_H

#include <stdint.h>

#include "kernels/backend.h"
#include "ops/write_clock.h"

typedef struct trn_neuron_config {
    const char *library;     /* libnrt path; NULL: libnrt.so.1 where the loader finds it */
    const char *compiler;    /* --neuron-cc; NULL: none (every op runs on the CPU) */
    const char *kernels_dir; /* the NKI sources (kernels/neuron/nki/) */
    const char *store_dir;   /* where NEFFs are kept; NULL: a private temporary directory */
    const char *target;      /* "trn1" or "trn2" */
    int compile_timeout_ms;
    /* A GEMM is split over the cores when each core's part still carries
     * this many flops (gemm_neuron.h, trn_ngemm_split); 0: never. */
    uint64_t split_min_flop;
    /* 1: real GEMMs' operands move as they lie in memory (program.h,
     * layout=cm; gemm_neuron.h, trn_ngemm_colmajor); 0: always packed. */
    int in_place;
    /* 1: such a matrix, when laid out as its program's tensor, is kept as
     * one copy per core that programs bind (core_copy.h). */
    int core_copies;
    int per_process; /* 1: executors start the runtime, one core each */
} trn_neuron_config;

/* What trn_backend_neuron_probe learnt. */
typedef struct trn_neuron_probe {
    int loaded;      /* the library loaded */
    int taken;       /* the runtime refused: its cores are in use */
    uint32_t ncores; /* visible cores (0 when it failed) */
} trn_neuron_probe;

/* Asks the runtime, in a child process, which cores this process may
 * have. Returns 0, or -1 with err (the runtime's message). Call before the
 * process has threads. */
int trn_backend_neuron_probe(const char *library, trn_neuron_probe *out, char *err, size_t errlen);

/* The backend over ncores NeuronCores (from the probe), taking cpu, which
 * it destroys with itself. NULL with err when the runtime cannot be started
 * (without executors), the compiler does not answer --version, or no NEFF
 * store can be made; cpu is then still the caller's. */
trn_backend *trn_backend_neuron_create(const trn_neuron_config *cfg, uint32_t ncores,
                                       trn_backend *cpu, char *err, size_t errlen);

/* Operands left resident in the cores' memory (docs/neuron.md, "Resident
 * operands"): with a write clock, a GEMM's input tensor is not written
 * again while it holds the same packing of memory the clock says has not
 * changed, and every op this backend runs stamps what it wrote on the
 * clock. Only sound when every writer of the buffers stamps the clock (no
 * client maps them): the daemon sets it with opaque device pointers, before
 * executors are forked (wc is in memory they share). NULL: off. A backend
 * other than the Neuron one ignores it. */
void trn_backend_neuron_set_write_clock(trn_backend *be, trn_write_clock *wc);

/* Where every process of this backend counts the bytes its GEMMs move
 * (trn_neuron_stats): zeroed memory they share, set before executors are
 * forked. NULL: not counted. A backend other than the Neuron one ignores
 * it. */
struct trn_nc_traffic;
void trn_backend_neuron_set_traffic(trn_backend *be, struct trn_nc_traffic *traffic);

/* How long moving bytes into a core's memory is estimated to take, in ns:
 * at the rate the executors measured (trn_backend_neuron_set_traffic),
 * or a nominal one before they did (kernels/neuron/nc_cost.h). */
uint64_t trn_backend_neuron_move_ns(const trn_backend *be, uint64_t bytes);

/* Why the NEFF cache could not be kept under the cache directory (it is
 * then private to this run), or "". */
const char *trn_backend_neuron_store_note(const trn_backend *be);

/* The NEFF compile service's counters (the daemon's process compiles). */
typedef struct trn_neuron_stats {
    uint64_t compiles, compile_failures; /* compiler runs */
    uint64_t store_hits;                 /* NEFFs found in the store */
    uint64_t remembered_failures;        /* compiles not run again: they failed before */
    /* GEMM operands and results moved to and from the cores' memory, and
     * operands not moved because a core held them (trn_nc_traffic; 0 when
     * trn_backend_neuron_set_traffic was not called). */
    uint64_t bytes_to_cores, bytes_from_cores, bytes_kept;
    uint64_t pack_ns;         /* host time packing operands into programs' layouts, and back */
    uint64_t bytes_on_core;   /* operands copied from another tensor of the core, not moved */
    uint64_t bytes_bound;     /* operands read from the core's one copy of them (core_copy.h) */
    uint64_t core_copy_bytes; /* held in core copies now, over every core */
    double move_bytes_per_ns; /* the rate placement assumes (trn_backend_neuron_move_ns) */
} trn_neuron_stats;
/* Zeros for a backend that is not the Neuron one. */
trn_neuron_stats trn_backend_neuron_stats(const trn_backend *be);

#endif
