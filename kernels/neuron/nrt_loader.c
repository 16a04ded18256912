/*
 * nrt_loader.c — opens the Neuron runtime (or its simulator) with dlopen and
 * resolves the entry points of nrt_api.h. Nothing here calls the runtime.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "kernels/neuron/nrt_api.h"

#define DEFAULT_LIBRARY "libnrt.so.1"

/* One entry point: the runtime's symbol and where its address goes. */
typedef struct nrt_symbol {
    const char *name;
    size_t offset; /* of the function pointer in trn_nrt_api */
} nrt_symbol;

#define SYM(field, symbol)                                                                         \
    { symbol, offsetof(trn_nrt_api, field) }
static const nrt_symbol symbols[] = {
    SYM(init, "nrt_init"),
    SYM(close, "nrt_close"),
    SYM(get_visible_nc_count, "nrt_get_visible_nc_count"),
    SYM(get_version, "nrt_get_version"),
    SYM(load, "nrt_load"),
    SYM(unload, "nrt_unload"),
    SYM(execute, "nrt_execute"),
    SYM(get_model_tensor_info, "nrt_get_model_tensor_info"),
    SYM(free_model_tensor_info, "nrt_free_model_tensor_info"),
    SYM(tensor_allocate, "nrt_tensor_allocate"),
    SYM(tensor_free, "nrt_tensor_free"),
    SYM(tensor_allocate_slice, "nrt_tensor_allocate_slice"),
    SYM(tensor_read, "nrt_tensor_read"),
    SYM(tensor_write, "nrt_tensor_write"),
    SYM(tensor_copy, "nrt_tensor_copy"),
    SYM(tensor_get_size, "nrt_tensor_get_size"),
    SYM(allocate_tensor_set, "nrt_allocate_tensor_set"),
    SYM(destroy_tensor_set, "nrt_destroy_tensor_set"),
    SYM(add_tensor_to_tensor_set, "nrt_add_tensor_to_tensor_set"),
};
#undef SYM

int trn_nrt_api_load(trn_nrt_api *api, const char *path, char *err, size_t errlen) {
    memset(api, 0, sizeof(*api));
    const char *lib = path && path[0] ? path : DEFAULT_LIBRARY;
    void *dl = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
    if (!dl) {
        const char *why = dlerror();
        snprintf(err, errlen, "cannot load the Neuron runtime %s: %s", lib, why ? why : "?");
        return -1;
    }
    for (size_t i = 0; i < sizeof(symbols) / sizeof(symbols[0]); i++) {
        void *fn = dlsym(dl, symbols[i].name);
        if (!fn) {
            snprintf(err, errlen, "the Neuron runtime %s has no %s", lib, symbols[i].name);
            dlclose(dl);
            memset(api, 0, sizeof(*api));
            return -1;
        }
        /* POSIX guarantees function pointers round-trip through void *. */
        memcpy((char *)api + symbols[i].offset, &fn, sizeof(fn));
    }
    api->dl = dl;
    return 0;
}

void trn_nrt_api_unload(trn_nrt_api *api) {
    if (api->dl)
        dlclose(api->dl);
    memset(api, 0, sizeof(*api));
}

const char *trn_nrt_status_name(trn_nrt_status st, char *buf, size_t len) {
    switch (st) {
    case TRN_NRT_SUCCESS: return "NRT_SUCCESS";
    case TRN_NRT_FAILURE: return "NRT_FAILURE";
    case TRN_NRT_INVALID: return "NRT_INVALID";
    case TRN_NRT_INVALID_HANDLE: return "NRT_INVALID_HANDLE";
    case TRN_NRT_RESOURCE: return "NRT_RESOURCE";
    case TRN_NRT_TIMEOUT: return "NRT_TIMEOUT";
    case TRN_NRT_HW_ERROR: return "NRT_HW_ERROR";
    case TRN_NRT_QUEUE_FULL: return "NRT_QUEUE_FULL";
    case TRN_NRT_LOAD_NOT_ENOUGH_NC: return "NRT_LOAD_NOT_ENOUGH_NC";
    case TRN_NRT_UNSUPPORTED_NEFF_VERSION: return "NRT_UNSUPPORTED_NEFF_VERSION";
    case TRN_NRT_FAIL_HOST_MEM_ALLOC: return "NRT_FAIL_HOST_MEM_ALLOC";
    case TRN_NRT_UNINITIALIZED: return "NRT_UNINITIALIZED";
    case TRN_NRT_CLOSED: return "NRT_CLOSED";
    case TRN_NRT_EXEC_BAD_INPUT: return "NRT_EXEC_BAD_INPUT";
    case TRN_NRT_EXEC_COMPLETED_WITH_NUM_ERR: return "NRT_EXEC_COMPLETED_WITH_NUM_ERR";
    case TRN_NRT_EXEC_COMPLETED_WITH_ERR: return "NRT_EXEC_COMPLETED_WITH_ERR";
    case TRN_NRT_EXEC_NC_BUSY: return "NRT_EXEC_NC_BUSY";
    case TRN_NRT_EXEC_OOB: return "NRT_EXEC_OOB";
    }
    snprintf(buf, len, "NRT_STATUS(%d)", (int)st);
    return buf;
}
