/*
 * nrtsim_tensor.c — tensors: allocation, slices, and the byte moves of
 * nrt_tensor_read/write/copy.
 *
 * Every tensor's bytes are host memory (calloc'd); a DEVICE tensor also
 * charges its core's device capacity (NRTSIM_HBM_MB) for its size, which
 * its last user (the tensor or one of its slices: the memory is refcounted)
 * gives back. Every access is bounds-checked against the tensor's view
 * before a byte moves. Moves touching a DEVICE tensor take the modelled DMA
 * time (nrtsim_timing.c).
 *
 * Live tensors are on the runtime's list, so that nrt_close frees them and
 * nrt_tensor_free of a tensor nrt_close already freed is harmless.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/nrtsim/nrtsim_internal.h"

static void list_add(nrtsim_rt *rt, trn_nrt_tensor *t) {
    t->prev = NULL;
    t->next = rt->tensors;
    if (rt->tensors)
        rt->tensors->prev = t;
    rt->tensors = t;
}

static void list_remove(nrtsim_rt *rt, trn_nrt_tensor *t) {
    if (t->prev)
        t->prev->next = t->next;
    else
        rt->tensors = t->next;
    if (t->next)
        t->next->prev = t->prev;
}

static int tensor_live(const nrtsim_rt *rt, const trn_nrt_tensor *t) {
    for (const trn_nrt_tensor *p = rt->tensors; p; p = p->next)
        if (p == t)
            return 1;
    return 0;
}

/* Drops one user of mem; the last one frees it and gives its capacity back. */
static void mem_release(nrtsim_rt *rt, nrtsim_mem *mem) {
    if (--mem->refs)
        return;
    if (mem->placement == TRN_NRT_PLACEMENT_DEVICE)
        nrtsim_uncharge(rt, mem->core, mem->size);
    free(mem->bytes);
    free(mem);
}

static void set_name(trn_nrt_tensor *t, const char *name) {
    snprintf(t->name, sizeof(t->name), "%s", name ? name : "");
}

/* A new tensor over fresh memory (lock held). */
static trn_nrt_status allocate_locked(nrtsim_rt *rt, trn_nrt_placement placement, int nc,
                                      size_t size, const char *name, trn_nrt_tensor **out) {
    const int device = placement == TRN_NRT_PLACEMENT_DEVICE;
    if (device && nrtsim_faults_alloc(&rt->faults, rt->cores[nc].physical))
        return TRN_NRT_RESOURCE;
    if (device && nrtsim_charge(rt, nc, size) != 0)
        return TRN_NRT_RESOURCE;
    trn_nrt_tensor *t = calloc(1, sizeof(*t));
    nrtsim_mem *mem = calloc(1, sizeof(*mem));
    unsigned char *bytes = calloc(1, size);
    if (!t || !mem || !bytes) {
        free(t);
        free(mem);
        free(bytes);
        if (device)
            nrtsim_uncharge(rt, nc, size);
        return TRN_NRT_FAIL_HOST_MEM_ALLOC;
    }
    *mem =
        (nrtsim_mem){.bytes = bytes, .size = size, .refs = 1, .placement = placement, .core = nc};
    t->mem = mem;
    t->size = size;
    set_name(t, name);
    list_add(rt, t);
    *out = t;
    return TRN_NRT_SUCCESS;
}

NRTSIM_API trn_nrt_status nrt_tensor_allocate(trn_nrt_placement placement, int logical_nc,
                                              size_t size, const char *name,
                                              trn_nrt_tensor **tensor) {
    if (!tensor)
        return TRN_NRT_INVALID;
    *tensor = NULL;
    nrtsim_rt *rt = nrtsim_lock();
    trn_nrt_status st = TRN_NRT_INVALID;
    const int host_any = placement == TRN_NRT_PLACEMENT_HOST && logical_nc == -1;
    if (!rt->initialized)
        st = TRN_NRT_UNINITIALIZED;
    else if (placement != TRN_NRT_PLACEMENT_DEVICE && placement != TRN_NRT_PLACEMENT_HOST)
        st = TRN_NRT_INVALID; /* virtual tensors are not simulated */
    else if (size > 0 && (host_any || (logical_nc >= 0 && logical_nc < rt->nvisible)))
        st = allocate_locked(rt, placement, host_any ? 0 : logical_nc, size, name, tensor);
    nrtsim_unlock();
    return st;
}

NRTSIM_API void nrt_tensor_free(trn_nrt_tensor **tensor) {
    if (!tensor || !*tensor)
        return;
    nrtsim_rt *rt = nrtsim_lock();
    if (tensor_live(rt, *tensor)) {
        list_remove(rt, *tensor);
        mem_release(rt, (*tensor)->mem);
        free(*tensor);
    }
    nrtsim_unlock();
    *tensor = NULL;
}

void nrtsim_tensors_release_all(nrtsim_rt *rt) {
    while (rt->tensors) {
        trn_nrt_tensor *t = rt->tensors;
        list_remove(rt, t);
        mem_release(rt, t->mem);
        free(t);
    }
}

NRTSIM_API trn_nrt_status nrt_tensor_allocate_slice(const trn_nrt_tensor *source, size_t offset,
                                                    size_t size, const char *name,
                                                    trn_nrt_tensor **slice) {
    if (!source || !slice)
        return TRN_NRT_INVALID;
    *slice = NULL;
    if (size == 0 || offset > source->size || size > source->size - offset)
        return TRN_NRT_INVALID;
    trn_nrt_tensor *t = calloc(1, sizeof(*t));
    if (!t)
        return TRN_NRT_FAIL_HOST_MEM_ALLOC;
    nrtsim_rt *rt = nrtsim_lock();
    if (!rt->initialized) {
        nrtsim_unlock();
        free(t);
        return TRN_NRT_UNINITIALIZED;
    }
    t->mem = source->mem;
    t->mem->refs++;
    t->offset = source->offset + offset;
    t->size = size;
    set_name(t, name);
    list_add(rt, t);
    nrtsim_unlock();
    *slice = t;
    return TRN_NRT_SUCCESS;
}

NRTSIM_API size_t nrt_tensor_get_size(const trn_nrt_tensor *tensor) {
    return tensor ? tensor->size : 0;
}

/* Whether [offset, offset + size) is inside t's view. */
static int in_bounds(const trn_nrt_tensor *t, size_t offset, size_t size) {
    return offset <= t->size && size <= t->size - offset;
}

/* The modelled DMA time of a move of size bytes, from now: none between
 * host tensors, the core's own memory's rate within one core (on_core),
 * else the host's. */
static uint64_t dma_deadline(int device, int on_core, size_t size) {
    nrtsim_rt *rt = nrtsim_lock();
    const uint64_t ns = !device   ? 0
                        : on_core ? nrtsim_hbm_ns(&rt->timing, size)
                                  : nrtsim_dma_ns(&rt->timing, size);
    nrtsim_unlock();
    return ns ? nrtsim_now_ns() + ns : 0;
}

/* Waits out the move's modelled time, and traces a move (kind "write",
 * "read" or "copy") of size bytes to or from a core's memory that began at
 * begin. */
static void finish_dma(const char *kind, const trn_nrt_tensor *t, size_t size, uint64_t begin,
                       uint64_t deadline) {
    if (deadline)
        nrtsim_sleep_until(deadline);
    if (t->mem->placement == TRN_NRT_PLACEMENT_DEVICE)
        nrtsim_trace(kind, t->mem->core, begin, nrtsim_now_ns(), size);
}

NRTSIM_API trn_nrt_status nrt_tensor_read(const trn_nrt_tensor *tensor, void *buf, size_t offset,
                                          size_t size) {
    if (!tensor || (!buf && size) || !in_bounds(tensor, offset, size))
        return TRN_NRT_INVALID;
    const uint64_t begin = nrtsim_now_ns();
    const uint64_t deadline =
        dma_deadline(tensor->mem->placement == TRN_NRT_PLACEMENT_DEVICE, 0, size);
    if (size)
        memcpy(buf, tensor->mem->bytes + tensor->offset + offset, size);
    finish_dma("read", tensor, size, begin, deadline);
    return TRN_NRT_SUCCESS;
}

NRTSIM_API trn_nrt_status nrt_tensor_write(trn_nrt_tensor *tensor, const void *buf, size_t offset,
                                           size_t size) {
    if (!tensor || (!buf && size) || !in_bounds(tensor, offset, size))
        return TRN_NRT_INVALID;
    const int device = tensor->mem->placement == TRN_NRT_PLACEMENT_DEVICE;
    int fails = 0;
    if (device) {
        nrtsim_rt *rt = nrtsim_lock();
        fails = nrtsim_faults_write(&rt->faults, rt->cores[tensor->mem->core].physical);
        nrtsim_unlock();
    }
    if (fails) { /* as a transfer cut off half way */
        memcpy(tensor->mem->bytes + tensor->offset + offset, buf, size / 2);
        return TRN_NRT_FAILURE;
    }
    const uint64_t begin = nrtsim_now_ns();
    const uint64_t deadline = dma_deadline(device, 0, size);
    if (size)
        memcpy(tensor->mem->bytes + tensor->offset + offset, buf, size);
    finish_dma("write", tensor, size, begin, deadline);
    return TRN_NRT_SUCCESS;
}

NRTSIM_API trn_nrt_status nrt_tensor_copy(const trn_nrt_tensor *src, size_t src_offset,
                                          trn_nrt_tensor *dst, size_t dst_offset, size_t size) {
    if (!src || !dst || !in_bounds(src, src_offset, size) || !in_bounds(dst, dst_offset, size))
        return TRN_NRT_INVALID;
    const int device = src->mem->placement == TRN_NRT_PLACEMENT_DEVICE ||
                       dst->mem->placement == TRN_NRT_PLACEMENT_DEVICE;
    const uint64_t begin = nrtsim_now_ns();
    const int on_core = src->mem->placement == TRN_NRT_PLACEMENT_DEVICE &&
                        dst->mem->placement == TRN_NRT_PLACEMENT_DEVICE &&
                        src->mem->core == dst->mem->core;
    const uint64_t deadline = dma_deadline(device, on_core, size);
    /* memmove: a tensor and its slice may overlap. */
    if (size)
        memmove(dst->mem->bytes + dst->offset + dst_offset,
                src->mem->bytes + src->offset + src_offset, size);
    finish_dma("copy", dst->mem->placement == TRN_NRT_PLACEMENT_DEVICE ? dst : src, size, begin,
               deadline);
    return TRN_NRT_SUCCESS;
}
