/*
 * nrt_api.h — the part of the Neuron runtime's C API (libnrt, "nrt.h" in
 * the Neuron SDK) that trnsci uses, declared here from the runtime's public
 * documentation so that nothing of the SDK is needed to build.
 *
 * The runtime is never linked: kernels/neuron/nrt_loader.c opens it with
 * dlopen at start and fills a trn_nrt_api table with its entry points. The
 * test simulator (tests/nrtsim/) defines the same symbols with the same
 * semantics and is loaded the same way.
 *
 * Invariants of the runtime that the backend relies on:
 *  - one process owns a NeuronCore (NEURON_RT_VISIBLE_CORES chooses which
 *    ones a process asks for); nrt_init fails when one is taken;
 *  - logical core ids count the visible cores from 0;
 *  - a loaded model runs on the cores it was loaded onto, one execution at
 *    a time per core; tensors are bound to a model's inputs and outputs by
 *    name through tensor sets;
 *  - nrt_tensor_read/write move bytes between host memory and a tensor
 *    (DMA for device tensors).
 */
#ifndef TRN_KERNELS_NEURON_NRT_API_H
#define TRN_KERNELS_NEURON_NRT_API_H

#include <stddef.h>
#include <stdint.h>

/* Status codes, with the runtime's values. */
typedef enum trn_nrt_status {
    TRN_NRT_SUCCESS = 0,
    TRN_NRT_FAILURE = 1,
    TRN_NRT_INVALID = 2,
    TRN_NRT_INVALID_HANDLE = 3,
    TRN_NRT_RESOURCE = 4,
    TRN_NRT_TIMEOUT = 5,
    TRN_NRT_HW_ERROR = 6,
    TRN_NRT_QUEUE_FULL = 7,
    TRN_NRT_LOAD_NOT_ENOUGH_NC = 9,
    TRN_NRT_UNSUPPORTED_NEFF_VERSION = 10,
    TRN_NRT_FAIL_HOST_MEM_ALLOC = 11,
    TRN_NRT_UNINITIALIZED = 13,
    TRN_NRT_CLOSED = 14,
    TRN_NRT_EXEC_BAD_INPUT = 1002,
    TRN_NRT_EXEC_COMPLETED_WITH_NUM_ERR = 1003,
    TRN_NRT_EXEC_COMPLETED_WITH_ERR = 1004,
    TRN_NRT_EXEC_NC_BUSY = 1005,
    TRN_NRT_EXEC_OOB = 1006,
} trn_nrt_status;

/* Where a tensor's memory is: device memory (HBM) of a core, or host. */
typedef enum trn_nrt_placement {
    TRN_NRT_PLACEMENT_DEVICE = 0,
    TRN_NRT_PLACEMENT_HOST = 1,
    TRN_NRT_PLACEMENT_VIRTUAL = 2,
} trn_nrt_placement;

/* nrt_init's framework argument: trnsci is no ML framework. */
#define TRN_NRT_FRAMEWORK_NO_FW 1

/* Element types of model tensors (the runtime's values). */
typedef enum trn_nrt_dtype {
    TRN_NRT_DTYPE_UNKNOWN = 0x0,
    TRN_NRT_DTYPE_BFLOAT16 = 0x6,
    TRN_NRT_DTYPE_FLOAT16 = 0x7,
    TRN_NRT_DTYPE_INT32 = 0x8,
    TRN_NRT_DTYPE_FLOAT32 = 0xA,
} trn_nrt_dtype;

typedef enum trn_nrt_usage { TRN_NRT_USAGE_INPUT = 0, TRN_NRT_USAGE_OUTPUT = 1 } trn_nrt_usage;

/* Opaque runtime objects. */
typedef struct trn_nrt_model trn_nrt_model;
typedef struct trn_nrt_tensor trn_nrt_tensor;
typedef struct trn_nrt_tensor_set trn_nrt_tensor_set;

#define TRN_NRT_TENSOR_NAME_MAX 256

/* One input or output of a loaded model (layout as the runtime's). */
typedef struct trn_nrt_tensor_info {
    char name[TRN_NRT_TENSOR_NAME_MAX];
    trn_nrt_usage usage;
    size_t size; /* bytes */
    trn_nrt_dtype dtype;
    uint32_t *shape;
    uint32_t ndim;
} trn_nrt_tensor_info;

typedef struct trn_nrt_tensor_info_array {
    uint64_t tensor_count;
    trn_nrt_tensor_info tensor_array[];
} trn_nrt_tensor_info_array;

/* The runtime's version (layout as the runtime's). */
#define TRN_NRT_VERSION_DETAIL_LEN 128
#define TRN_NRT_GIT_HASH_LEN 64
typedef struct trn_nrt_version {
    uint64_t rt_major, rt_minor, rt_patch, rt_maintenance;
    char rt_detail[TRN_NRT_VERSION_DETAIL_LEN];
    char git_hash[TRN_NRT_GIT_HASH_LEN];
} trn_nrt_version;

/* The entry points, as the runtime exports them under the names in the
 * comments. Every one is present once trn_nrt_api_load succeeded. */
typedef struct trn_nrt_api {
    void *dl; /* the dlopen handle */
    /* nrt_init(framework, fw_version, fal_version) */
    trn_nrt_status (*init)(int framework, const char *fw_version, const char *fal_version);
    /* nrt_close() */
    void (*close)(void);
    /* nrt_get_visible_nc_count(&count) */
    trn_nrt_status (*get_visible_nc_count)(uint32_t *count);
    /* nrt_get_version(&version, sizeof version) */
    trn_nrt_status (*get_version)(trn_nrt_version *ver, size_t size);
    /* nrt_load(neff, size, start_nc (-1: any), nc_count (-1: all), &model) */
    trn_nrt_status (*load)(const void *neff, size_t size, int32_t start_nc, int32_t nc_count,
                           trn_nrt_model **model);
    /* nrt_unload(model) */
    trn_nrt_status (*unload)(trn_nrt_model *model);
    /* nrt_execute(model, inputs, outputs) */
    trn_nrt_status (*execute)(trn_nrt_model *model, const trn_nrt_tensor_set *in,
                              trn_nrt_tensor_set *out);
    /* nrt_get_model_tensor_info(model, &info) / nrt_free_model_tensor_info(info) */
    trn_nrt_status (*get_model_tensor_info)(trn_nrt_model *model, trn_nrt_tensor_info_array **info);
    trn_nrt_status (*free_model_tensor_info)(trn_nrt_tensor_info_array *info);
    /* nrt_tensor_allocate(placement, logical_nc, size, name, &tensor) */
    trn_nrt_status (*tensor_allocate)(trn_nrt_placement placement, int logical_nc, size_t size,
                                      const char *name, trn_nrt_tensor **tensor);
    /* nrt_tensor_free(&tensor): sets it to NULL */
    void (*tensor_free)(trn_nrt_tensor **tensor);
    /* nrt_tensor_allocate_slice(source, offset, size, name, &slice) */
    trn_nrt_status (*tensor_allocate_slice)(const trn_nrt_tensor *source, size_t offset,
                                            size_t size, const char *name, trn_nrt_tensor **slice);
    /* nrt_tensor_read(tensor, buf, offset, size) / nrt_tensor_write(...) */
    trn_nrt_status (*tensor_read)(const trn_nrt_tensor *tensor, void *buf, size_t offset,
                                  size_t size);
    trn_nrt_status (*tensor_write)(trn_nrt_tensor *tensor, const void *buf, size_t offset,
                                   size_t size);
    /* nrt_tensor_copy(src, src_offset, dst, dst_offset, size) */
    trn_nrt_status (*tensor_copy)(const trn_nrt_tensor *src, size_t src_offset, trn_nrt_tensor *dst,
                                  size_t dst_offset, size_t size);
    /* nrt_tensor_get_size(tensor) */
    size_t (*tensor_get_size)(const trn_nrt_tensor *tensor);
    /* nrt_allocate_tensor_set(&set) / nrt_destroy_tensor_set(&set) */
    trn_nrt_status (*allocate_tensor_set)(trn_nrt_tensor_set **set);
    void (*destroy_tensor_set)(trn_nrt_tensor_set **set);
    /* nrt_add_tensor_to_tensor_set(set, name, tensor) */
    trn_nrt_status (*add_tensor_to_tensor_set)(trn_nrt_tensor_set *set, const char *name,
                                               trn_nrt_tensor *tensor);
} trn_nrt_api;

/* Opens the runtime library at path (NULL: "libnrt.so.1", found as the
 * dynamic loader finds libraries) and resolves every entry point above.
 * Returns 0, or -1 with err naming the library or the missing symbol (the
 * handle is closed then). Nothing of the runtime runs: nrt_init is the
 * caller's. */
int trn_nrt_api_load(trn_nrt_api *api, const char *path, char *err, size_t errlen);

/* Closes the library (after nrt_close). */
void trn_nrt_api_unload(trn_nrt_api *api);

/* The status's name ("NRT_RESOURCE"), or "NRT_STATUS(n)" in buf for a value
 * not listed here. */
const char *trn_nrt_status_name(trn_nrt_status st, char *buf, size_t len);

#endif
