/*
 * rand_host.c — host generators (trnrandCreateGeneratorHost): the request a
 * device generator would send, validated by the same validator the daemon
 * runs and computed in this process by the same kernel the daemon's cores
 * run (kernels/cpu/rand.c, linked into libtrnsci), into host memory. So a
 * host generator's numbers are bitwise a device generator's of the same
 * seed, offset and calls, and it needs no daemon.
 *
 * The request's destination is buffer 1, which this file's validator host
 * maps to the caller's memory.
 */
#include "client/rand_host.h"

#include <stdio.h>

#include "kernels/cpu/cpu_kernels.h"
#include "ops/validate/validate.h"

/* The caller's memory, as the request's only buffer. */
typedef struct host_memory {
    void *data;
    size_t size;
} host_memory;

static void *buffer_get(void *ctx, uint64_t id, trn_vbuffer *out) {
    host_memory *h = ctx;
    if (id != TRN_RAND_HOST_BUFFER)
        return NULL;
    out->data = h->data;
    out->size = h->size;
    return h; /* nothing to hold */
}

static void nothing_to_put(void *held) {
    (void)held;
}

static const trn_vhost host_vhost = {
    .buffer_get = buffer_get,
    .buffer_put = nothing_to_put,
};

trnsciError_t trn_rand_host_generate(const Trnsci__V1__Op *op, void *out, size_t bytes,
                                     const char *fn) {
    host_memory h = {out, bytes};
    trn_op_refs refs;
    trn_op_refs_init(&refs, &host_vhost);
    char msg[256] = "";
    trn_vctx vx = {&host_vhost, &h, &refs, msg, sizeof(msg)};
    trn_op_desc desc;
    if (trn_validate_wire_op(&vx, op, &desc) != TRN_WIRE_OK)
        return trn_fail(trnsciErrorInvalidValue, "%s: %s", fn, msg);
    trn_kmsg km;
    trn_kmsg_init(&km);
    const trn_kstatus k = trn_cpu_rand(&desc.u.rand, &km, 0, 1);
    trn_op_refs_release(&refs);
    switch (k) {
    case TRN_KSTATUS_OK: return trnsciSuccess;
    case TRN_KSTATUS_UNSUPPORTED:
        return trn_fail(trnsciErrorNotSupported, "%s: not available from a host generator", fn);
    case TRN_KSTATUS_NO_MEMORY:
        return trn_fail(trnsciErrorMemoryAllocation, "%s: out of memory", fn);
    default: return trn_fail(trnsciErrorLaunchFailure, "%s: the generator failed", fn);
    }
}
