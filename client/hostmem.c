/*
 * hostmem.c — pinned host memory (trnsciMallocHost, trnsciHostAlloc,
 * trnsciFreeHost) and registered host memory (trnsciHostRegister,
 * trnsciHostUnregister).
 *
 * On the local transport a pinned allocation is a daemon buffer mapped into
 * this process (trn_memory_alloc): it is in the pointer table, so the
 * daemon's copy engine can copy to and from it, and memory.c turns
 * trnsciMemcpyAsync between it and device memory into a queued copy op.
 * Over gRPC it is page-aligned anonymous memory, copied as pageable memory.
 * A registration only records the range (the daemon cannot reach memory it
 * did not allocate), so that the CUDA error codes come out as CUDA's.
 *
 * The ranges live in one small array under a mutex: programs hold a handful
 * of pinned buffers, and the lookups on the copy path are a linear scan.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "client/client.h"
#include "client/graph.h"

typedef enum host_kind {
    HOST_DAEMON = 1,     /* pinned, a daemon buffer (local transport) */
    HOST_ANONYMOUS = 2,  /* pinned, anonymous memory (gRPC) */
    HOST_REGISTERED = 3, /* trnsciHostRegister */
} host_kind;

typedef struct host_range {
    uintptr_t base;
    size_t size;
    host_kind kind;
} host_range;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static host_range *ranges;
static size_t n_ranges, cap_ranges;

/* With lock held: the index of the range containing [p, p + count), or -1. */
static long find_locked(uintptr_t p, size_t count) {
    for (size_t i = 0; i < n_ranges; i++)
        if (p >= ranges[i].base && p - ranges[i].base < ranges[i].size &&
            count <= ranges[i].size - (p - ranges[i].base))
            return (long)i;
    return -1;
}

/* With lock held: whether [p, p + size) overlaps a range. */
static int overlaps_locked(uintptr_t p, size_t size) {
    for (size_t i = 0; i < n_ranges; i++)
        if (p < ranges[i].base + ranges[i].size && ranges[i].base < p + size)
            return 1;
    return 0;
}

/* Adds a range: 0, -1 when out of memory, -2 when it overlaps one (and
 * `exclusive`). */
static int add_range(uintptr_t base, size_t size, host_kind kind, int exclusive) {
    pthread_mutex_lock(&lock);
    if (exclusive && overlaps_locked(base, size)) {
        pthread_mutex_unlock(&lock);
        return -2;
    }
    if (n_ranges == cap_ranges) {
        const size_t cap = cap_ranges ? 2 * cap_ranges : 16;
        host_range *v = realloc(ranges, cap * sizeof(*v));
        if (!v) {
            pthread_mutex_unlock(&lock);
            return -1;
        }
        ranges = v;
        cap_ranges = cap;
    }
    ranges[n_ranges++] = (host_range){base, size, kind};
    pthread_mutex_unlock(&lock);
    return 0;
}

/* Removes the range starting at base whose kind is one of the two given;
 * returns 0 with it in *out, or -1. */
static int take_range(uintptr_t base, host_kind k1, host_kind k2, host_range *out) {
    pthread_mutex_lock(&lock);
    for (size_t i = 0; i < n_ranges; i++)
        if (ranges[i].base == base && (ranges[i].kind == k1 || ranges[i].kind == k2)) {
            *out = ranges[i];
            ranges[i] = ranges[--n_ranges];
            pthread_mutex_unlock(&lock);
            return 0;
        }
    pthread_mutex_unlock(&lock);
    return -1;
}

int trn_hostmem_daemon_range(const void *p, size_t count) {
    pthread_mutex_lock(&lock);
    const long i = find_locked((uintptr_t)p, count);
    const int yes = i >= 0 && ranges[i].kind == HOST_DAEMON;
    pthread_mutex_unlock(&lock);
    return yes;
}

int trn_hostmem_contains(const void *p) {
    if (!p)
        return 0;
    pthread_mutex_lock(&lock);
    const int yes = find_locked((uintptr_t)p, 1) >= 0;
    pthread_mutex_unlock(&lock);
    return yes;
}

void trn_hostmem_session_ended(void) {
    pthread_mutex_lock(&lock);
    for (size_t i = 0; i < n_ranges;)
        if (ranges[i].kind == HOST_DAEMON)
            ranges[i] = ranges[--n_ranges];
        else
            i++;
    pthread_mutex_unlock(&lock);
}

#define HOST_ALLOC_FLAGS                                                                           \
    (trnsciHostAllocPortable | trnsciHostAllocMapped | trnsciHostAllocWriteCombined)

static trnsciError_t host_alloc(void **pHost, size_t size, unsigned flags, const char *fn) {
    if (!pHost)
        return trn_fail(trnsciErrorInvalidValue, "%s: the pointer argument is NULL", fn);
    *pHost = NULL;
    if (flags & ~HOST_ALLOC_FLAGS)
        return trn_fail(trnsciErrorInvalidValue, "%s: unknown flags 0x%x", fn, flags);
    trnsciError_t e;
    trn_client *c = trn_client_get(&e);
    if (!c || (e = trn_capture_refuse_unsafe(fn)))
        return e;
    if (size == 0)
        return trn_ok();
    void *p = NULL;
    host_kind kind;
    if (c->host_mapped) {
        if ((e = trn_memory_alloc_host(c, size, &p, fn)))
            return e;
        kind = HOST_DAEMON;
    } else {
        if (size > SIZE_MAX / 2)
            return trn_fail(trnsciErrorMemoryAllocation, "%s: %zu bytes is too large", fn, size);
        p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED)
            return trn_fail(trnsciErrorMemoryAllocation, "%s: cannot map %zu bytes", fn, size);
        kind = HOST_ANONYMOUS;
    }
    if (add_range((uintptr_t)p, size, kind, 0) != 0) {
        if (kind == HOST_DAEMON)
            trn_memory_release(c, p, fn);
        else
            munmap(p, size);
        return trn_fail(trnsciErrorMemoryAllocation, "%s: out of client memory", fn);
    }
    *pHost = p;
    return trn_ok();
}

trnsciError_t trnsciMallocHost(void **ptr, size_t size) {
    return host_alloc(ptr, size, trnsciHostAllocDefault, "trnsciMallocHost");
}

trnsciError_t trnsciHostAlloc(void **pHost, size_t size, unsigned int flags) {
    return host_alloc(pHost, size, flags, "trnsciHostAlloc");
}

trnsciError_t trnsciFreeHost(void *ptr) {
    if (!ptr)
        return trn_ok();
    host_range r;
    if (take_range((uintptr_t)ptr, HOST_DAEMON, HOST_ANONYMOUS, &r) != 0)
        return trn_fail(trnsciErrorInvalidValue,
                        "trnsciFreeHost: %p is not the start of memory from trnsciMallocHost or "
                        "trnsciHostAlloc (or it was freed, or trnsciDeviceReset freed it)",
                        ptr);
    /* Downloads into it still being delivered (gRPC) finish first. */
    trn_fetch_wait(trn_fetch_mark(), 0);
    if (r.kind == HOST_ANONYMOUS) {
        munmap(ptr, r.size);
        return trn_ok();
    }
    trn_client *c = trn_client_peek();
    if (!c) /* the session ended, and its buffers with it */
        return trn_ok();
    const trnsciError_t e = trn_memory_release(c, ptr, "trnsciFreeHost");
    return e == trnsciSuccess ? trn_ok() : e;
}

#define HOST_REGISTER_FLAGS                                                                        \
    (trnsciHostRegisterPortable | trnsciHostRegisterMapped | trnsciHostRegisterIoMemory |          \
     trnsciHostRegisterReadOnly)

trnsciError_t trnsciHostRegister(void *ptr, size_t size, unsigned int flags) {
    if (!ptr || size == 0)
        return trn_fail(trnsciErrorInvalidValue, "trnsciHostRegister: ptr is NULL or size is 0");
    if (flags & ~HOST_REGISTER_FLAGS)
        return trn_fail(trnsciErrorInvalidValue, "trnsciHostRegister: unknown flags 0x%x", flags);
    if (flags & trnsciHostRegisterIoMemory)
        return trn_fail(trnsciErrorNotSupported,
                        "trnsciHostRegister: trnsciHostRegisterIoMemory (the daemon cannot reach "
                        "I/O memory)");
    if ((uintptr_t)ptr > UINTPTR_MAX - size)
        return trn_fail(trnsciErrorInvalidValue,
                        "trnsciHostRegister: %zu bytes from %p wrap around the address space", size,
                        ptr);
    const int added = add_range((uintptr_t)ptr, size, HOST_REGISTERED, 1);
    if (added == -2)
        return trn_fail(trnsciErrorHostMemoryAlreadyRegistered,
                        "trnsciHostRegister: [%p, +%zu) overlaps registered or pinned memory", ptr,
                        size);
    if (added != 0)
        return trn_fail(trnsciErrorMemoryAllocation, "trnsciHostRegister: out of client memory");
    return trn_ok();
}

trnsciError_t trnsciHostUnregister(void *ptr) {
    host_range r;
    if (!ptr || take_range((uintptr_t)ptr, HOST_REGISTERED, HOST_REGISTERED, &r) != 0)
        return trn_fail(trnsciErrorHostMemoryNotRegistered,
                        "trnsciHostUnregister: %p is not the start of memory registered with "
                        "trnsciHostRegister",
                        ptr);
    trn_fetch_wait(trn_fetch_mark(), 0);
    return trn_ok();
}

/* Pinned memory that is a daemon buffer is already device-addressable: its
 * device pointer is its host address. */
trnsciError_t trnsciHostGetDevicePointer(void **pDevice, void *pHost, unsigned int flags) {
    if (!pDevice || !pHost)
        return trn_fail(trnsciErrorInvalidValue,
                        "trnsciHostGetDevicePointer: pDevice or pHost is NULL");
    if (flags != 0)
        return trn_fail(trnsciErrorInvalidValue, "trnsciHostGetDevicePointer: flags must be 0");
    if (!trn_hostmem_daemon_range(pHost, 1))
        return trn_fail(trnsciErrorInvalidValue,
                        "trnsciHostGetDevicePointer: %p is not pinned memory the daemon can "
                        "reach (only trnsciMallocHost/trnsciHostAlloc memory on the local "
                        "transport is)",
                        pHost);
    *pDevice = pHost;
    return trn_ok();
}
