/*
 * nrtsim_internal.h — what the files of the libnrt simulator share: the
 * simulated runtime (one process-wide struct, nrtsim_runtime.c), the
 * runtime objects behind the opaque types of kernels/neuron/nrt_api.h, and
 * the exported entry points (declared here so that nrtsim_runtime.c can
 * check their types against the function table of nrt_api.h).
 *
 * Invariants:
 *  - every field of nrtsim_rt is read and written with nrtsim_lock() held,
 *    except the per-core exec_lock mutexes (taken without the global lock,
 *    never the other way round: a thread holding an exec_lock may take the
 *    global lock, a thread holding the global lock takes no exec_lock);
 *  - tensor memory (nrtsim_mem) is shared by a tensor and its slices and
 *    freed, with its device capacity given back, when the last one goes;
 *  - a model's tensors were checked at load against what its kernel reads
 *    and writes, so execute needs only to bind them by name and size.
 */
#ifndef TRN_TESTS_NRTSIM_INTERNAL_H
#define TRN_TESTS_NRTSIM_INTERNAL_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include "kernels/neuron/nrt_api.h"
#include "kernels/neuron/program.h"

#define NRTSIM_API __attribute__((visibility("default")))

#define NRTSIM_MAX_CORES 64
#define NRTSIM_MAX_TENSORS 40 /* per model: a gemm_seq of 8 nodes has up to 33 */
#define NRTSIM_MAX_NDIM 8
#define NRTSIM_PATH_MAX 4096

/* Host memory of one tensor allocation, shared with its slices. */
typedef struct nrtsim_mem {
    unsigned char *bytes;
    size_t size;
    unsigned refs; /* tensors (the allocation and its slices) using it */
    trn_nrt_placement placement;
    int core; /* logical; charged for DEVICE memory */
} nrtsim_mem;

struct trn_nrt_tensor {
    nrtsim_mem *mem;
    size_t offset, size; /* the view of mem this tensor is */
    char name[TRN_NRT_TENSOR_NAME_MAX];
    struct trn_nrt_tensor *prev, *next; /* the runtime's list of live tensors */
};

/* One input or output of a model, as its NEFF declares it. */
typedef struct nrtsim_tdecl {
    char name[TRN_NRT_TENSOR_NAME_MAX];
    trn_nrt_usage usage;
    trn_nrt_dtype dtype;
    uint64_t bytes;
    uint32_t ndim;
    uint32_t shape[NRTSIM_MAX_NDIM];
} nrtsim_tdecl;

/* One GEMM of an execution: the gemm program has one, gemm_seq several.
 * Its at, b and c are the input tensors named in[] (src -1), or the d of
 * an earlier node (src >= 0); its alpha and beta are scal's floats from
 * scal_at. */
typedef struct nrtsim_node {
    trn_nprog_gemm g;
    int src[3];
    char in[3][16], d[16];
    size_t scal_at;
} nrtsim_node;

/* A parsed NEFF (nrtsim_model.c documents the format). */
typedef struct nrtsim_neff {
    char target[8];
    char kernel[64];
    char params[TRN_NPROG_SEQ_PARAMS_LEN];
    char source_hash[32];
    size_t ntensors;
    nrtsim_tdecl tensors[NRTSIM_MAX_TENSORS];
    int nnodes;
    nrtsim_node nodes[TRN_NPROG_SEQ_MAX];
} nrtsim_neff;

struct trn_nrt_model {
    nrtsim_neff neff;
    int core;         /* logical */
    uint64_t charged; /* device bytes of the core it holds */
    struct trn_nrt_model *prev, *next;
};

typedef struct nrtsim_binding {
    char name[TRN_NRT_TENSOR_NAME_MAX];
    trn_nrt_tensor *tensor;
} nrtsim_binding;

struct trn_nrt_tensor_set {
    size_t count, cap;
    nrtsim_binding *items;
};

/* Faults armed for one physical core, from the NRTSIM_FAULTS file. */
typedef struct nrtsim_core_faults {
    uint64_t exec_error, alloc_fail, timeout, write_fail;
    int hang;
} nrtsim_core_faults;

typedef struct nrtsim_faults {
    char path[NRTSIM_PATH_MAX]; /* empty: no fault file */
    int seen;                   /* the identity below is of a file read */
    dev_t dev;
    ino_t ino;
    off_t size;
    struct timespec mtime;
    nrtsim_core_faults core[NRTSIM_MAX_CORES];
} nrtsim_faults;

typedef struct nrtsim_timing {
    uint64_t dispatch_ns;
    double dma_bytes_per_ns; /* 0: instantaneous */
    double hbm_bytes_per_ns; /* copies within one core's memory; 0: instantaneous */
    double flops_per_ns;     /* 0: instantaneous */
    uint64_t timeout_ns;
    int trace_fd; /* NRTSIM_TRACE, or -1 */
} nrtsim_timing;

typedef struct nrtsim_core {
    int physical;
    int lock_fd;
    uint64_t hbm_used;
} nrtsim_core;

/* The simulated runtime of this process. */
typedef struct nrtsim_rt {
    int initialized;
    int machine_cores;
    int nvisible;
    nrtsim_core cores[NRTSIM_MAX_CORES]; /* by logical id */
    uint64_t hbm_capacity;               /* bytes per core */
    nrtsim_timing timing;
    nrtsim_faults faults;
    trn_nrt_tensor *tensors;
    trn_nrt_model *models;
} nrtsim_rt;

/* ---- nrtsim_runtime.c ---- */
/* The runtime, with the global lock taken / given back. */
nrtsim_rt *nrtsim_lock(void);
void nrtsim_unlock(void);
/* One execution at a time per core: the mutex of logical core nc. */
pthread_mutex_t *nrtsim_exec_lock(int nc);
/* Device capacity of core nc (lock held): 0, or -1 when bytes do not fit. */
int nrtsim_charge(nrtsim_rt *rt, int nc, uint64_t bytes);
void nrtsim_uncharge(nrtsim_rt *rt, int nc, uint64_t bytes);
/* Parses NEURON_RT_VISIBLE_CORES ("1", "0-3", "0,2", "0-1,4") into a mask
 * of cores below machine_cores. Returns 0, or -1 with err set. */
int nrtsim_parse_cores(const char *text, int machine_cores, uint64_t *mask, char *err,
                       size_t errlen);

/* ---- nrtsim_tensor.c ---- */
/* Frees every live tensor (nrt_close, lock held). */
void nrtsim_tensors_release_all(nrtsim_rt *rt);

/* ---- nrtsim_model.c ---- */
/* Parses a NEFF of size bytes: 0, or -1 with err set. */
int nrtsim_neff_parse(const void *data, size_t size, nrtsim_neff *out, char *err, size_t errlen);
void nrtsim_models_release_all(nrtsim_rt *rt);
/* Whether model is loaded (lock held). */
int nrtsim_model_live(const nrtsim_rt *rt, const trn_nrt_model *model);

/* ---- nrtsim_gemm.c ---- */
/* Runs the gemm program g on its tensors, bound in the order at, b, c,
 * scal, d (sizes already checked). Returns TRN_NRT_SUCCESS or
 * TRN_NRT_FAIL_HOST_MEM_ALLOC. */
trn_nrt_status nrtsim_gemm_run(const trn_nprog_gemm *g, const float *at, const float *b,
                               const float *c, const float *scal, float *d);
/* bfloat16 of x, round to nearest, ties to even (as a float). */
float nrtsim_bf16(float x);

/* ---- nrtsim_faults.c ---- */
typedef enum nrtsim_fault {
    NRTSIM_FAULT_NONE,
    NRTSIM_FAULT_EXEC_ERROR,
    NRTSIM_FAULT_TIMEOUT,
    NRTSIM_FAULT_HANG,
} nrtsim_fault;
/* Sets the fault file from NRTSIM_FAULTS (init, lock held). */
void nrtsim_faults_init(nrtsim_faults *f);
/* The fault the next execute on physical core pc meets, consuming one
 * count (lock held; re-reads the file when it changed). */
nrtsim_fault nrtsim_faults_exec(nrtsim_faults *f, int pc);
/* Whether the next DEVICE allocation on physical core pc fails. */
int nrtsim_faults_alloc(nrtsim_faults *f, int pc);
/* Whether this write to physical core pc's memory fails (write_fail). */
int nrtsim_faults_write(nrtsim_faults *f, int pc);

/* ---- nrtsim_timing.c ---- */
/* Reads the timing model's variables: 0, or -1 with err set. */
int nrtsim_timing_init(nrtsim_timing *t, char *err, size_t errlen);
/* Now, CLOCK_MONOTONIC, in ns. */
uint64_t nrtsim_now_ns(void);
/* Sleeps (not spins) until the CLOCK_MONOTONIC time deadline_ns. */
void nrtsim_sleep_until(uint64_t deadline_ns);
/* The modelled durations. */
uint64_t nrtsim_dma_ns(const nrtsim_timing *t, size_t bytes);
/* The modelled time of a copy within one core's memory. */
uint64_t nrtsim_hbm_ns(const nrtsim_timing *t, size_t bytes);
uint64_t nrtsim_compute_ns(const nrtsim_timing *t, const nrtsim_neff *n);
/* Closes what nrtsim_timing_init opened (the trace file). */
void nrtsim_timing_close(nrtsim_timing *t);
/* Appends "KIND PHYSICAL_CORE BEGIN_NS END_NS PID" to the NRTSIM_TRACE file
 * (one write of one line: lines of several processes never interleave),
 * when there is one. kind: "dma" (a move to or from a core's memory) or
 * "exec". */
void nrtsim_trace(const char *kind, int logical_core, uint64_t begin_ns, uint64_t end_ns,
                  size_t bytes);
/* Blocks the calling thread for good (a hung execution). */
_Noreturn void nrtsim_block_forever(void);

/* Environment numbers: 0 with *out (def when unset), -1 when malformed. */
int nrtsim_env_u64(const char *name, uint64_t def, uint64_t *out);
int nrtsim_env_double(const char *name, double *out);

/* ---- the exported entry points (names and types of the real runtime) ---- */
NRTSIM_API trn_nrt_status nrt_init(int framework, const char *fw_version, const char *fal_version);
NRTSIM_API void nrt_close(void);
NRTSIM_API trn_nrt_status nrt_get_visible_nc_count(uint32_t *count);
NRTSIM_API trn_nrt_status nrt_get_version(trn_nrt_version *ver, size_t size);
NRTSIM_API trn_nrt_status nrt_load(const void *neff, size_t size, int32_t start_nc,
                                   int32_t nc_count, trn_nrt_model **model);
NRTSIM_API trn_nrt_status nrt_unload(trn_nrt_model *model);
NRTSIM_API trn_nrt_status nrt_execute(trn_nrt_model *model, const trn_nrt_tensor_set *in,
                                      trn_nrt_tensor_set *out);
NRTSIM_API trn_nrt_status nrt_get_model_tensor_info(trn_nrt_model *model,
                                                    trn_nrt_tensor_info_array **info);
NRTSIM_API trn_nrt_status nrt_free_model_tensor_info(trn_nrt_tensor_info_array *info);
NRTSIM_API trn_nrt_status nrt_tensor_allocate(trn_nrt_placement placement, int logical_nc,
                                              size_t size, const char *name,
                                              trn_nrt_tensor **tensor);
NRTSIM_API void nrt_tensor_free(trn_nrt_tensor **tensor);
NRTSIM_API trn_nrt_status nrt_tensor_allocate_slice(const trn_nrt_tensor *source, size_t offset,
                                                    size_t size, const char *name,
                                                    trn_nrt_tensor **slice);
NRTSIM_API trn_nrt_status nrt_tensor_read(const trn_nrt_tensor *tensor, void *buf, size_t offset,
                                          size_t size);
NRTSIM_API trn_nrt_status nrt_tensor_write(trn_nrt_tensor *tensor, const void *buf, size_t offset,
                                           size_t size);
NRTSIM_API trn_nrt_status nrt_tensor_copy(const trn_nrt_tensor *src, size_t src_offset,
                                          trn_nrt_tensor *dst, size_t dst_offset, size_t size);
NRTSIM_API size_t nrt_tensor_get_size(const trn_nrt_tensor *tensor);
NRTSIM_API trn_nrt_status nrt_allocate_tensor_set(trn_nrt_tensor_set **set);
NRTSIM_API void nrt_destroy_tensor_set(trn_nrt_tensor_set **set);
NRTSIM_API trn_nrt_status nrt_add_tensor_to_tensor_set(trn_nrt_tensor_set *set, const char *name,
                                                       trn_nrt_tensor *tensor);
NRTSIM_API trn_nrt_status nrt_get_tensor_from_tensor_set(trn_nrt_tensor_set *set, const char *name,
                                                         trn_nrt_tensor **tensor);

#endif
