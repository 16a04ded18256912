/*
 * memory.c — trnsciMalloc/Free/Memcpy/Memset and their stream-ordered
 * (*Async) forms.
 *
 * Local transport (c->mapped): a device pointer is the client's mapping of
 * the buffer's shared memory. The daemon computes on the same pages, so
 * host↔device copies are plain memcpy here, after waiting for queued work
 * (all of it for trnsciMemcpy, the stream's for trnsciMemcpyAsync).
 *
 * gRPC, and the local transport of a daemon whose device pointers are
 * opaque (docs/neuron.md, "Memory model"): a device pointer is the start of a
 * reserved, inaccessible address range of the allocation's size (see
 * ptrtable.h). On the local transport the data of such copies goes through
 * the staging buffer (TRNSCI_WIRE_STAGING_BYTES at a time) (a pinned host allocation the daemon
 * copies from and into, never the socket); over gRPC it rides in the messages. Host↔device copies
 * move in chunks of at most chunk_bytes, so no single message approaches gRPC's size limits:
 * trnsciMemcpy uses plain Write/Read after synchronising; trnsciMemcpyAsync uses ordered Writes
 * (staged by the daemon, copied in stream order) and StageOutOps whose data the fetch thread
 * (fetch.c) delivers.
 *
 * Device-to-device copies and memsets on a stream are CopyOp/MemsetOp on
 * either transport (the daemon runs them on its copy engine).
 */
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "client/client.h"
#include "client/graph.h"

static size_t round_to_page(uint64_t n) {
    const size_t page = (size_t)sysconf(_SC_PAGESIZE);
    return (size_t)((n + page - 1) / page * page);
}

static trnsciError_t free_on_daemon(trn_client *c, uint64_t buffer_id) {
    Trnsci__V1__FreeRequest req = TRNSCI__V1__FREE_REQUEST__INIT;
    req.session_id = c->session_id;
    req.buffer_id = buffer_id;
    return trn_client_call(c, TRN_WIRE_FREE, &req.base, NULL, NULL, TRN_CALL_TIMEOUT_MS);
}

/* What an allocation is: device memory, pinned host memory, or the
 * staging buffer (host memory the daemon does not charge to the quota). */
enum { ALLOC_DEVICE, ALLOC_HOST, ALLOC_STAGING };

static trnsciError_t alloc_buffer(trn_client *c, size_t size, int kind, void **out,
                                  const char *fn) {
    trnsciError_t e;
    if (size > SIZE_MAX / 2)
        return trn_fail(trnsciErrorMemoryAllocation, "%s: %zu bytes is too large", fn, size);
    const int host = kind != ALLOC_DEVICE;
    const int maps = host ? c->host_mapped : c->mapped;
    void *base = MAP_FAILED;
    if (!maps) {
        base = mmap(NULL, round_to_page(size), PROT_NONE,
                    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (base == MAP_FAILED)
            return trn_fail(trnsciErrorMemoryAllocation,
                            "%s: cannot reserve %zu bytes of address space", fn, size);
    }

    Trnsci__V1__AllocRequest req = TRNSCI__V1__ALLOC_REQUEST__INIT;
    req.session_id = c->session_id;
    req.bytes = size;
    req.host = host && c->protocol_minor >= 14; /* older daemons map every buffer */
    req.staging = kind == ALLOC_STAGING;        /* only sent to opaque (1.14) daemons */
    Trnsci__V1__AllocReply *r = NULL;
    int fd = -1;
    e = trn_client_call_fd(c, TRN_WIRE_ALLOC, &req.base, &trnsci__v1__alloc_reply__descriptor,
                           (ProtobufCMessage **)&r, &fd, TRN_CALL_TIMEOUT_MS);
    if (e != trnsciSuccess) {
        if (base != MAP_FAILED)
            munmap(base, round_to_page(size));
        return e;
    }
    const uint64_t id = r->buffer_id;
    trnsci__v1__alloc_reply__free_unpacked(r, NULL);
    if (maps) {
        if (fd >= 0)
            base = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
        if (fd >= 0)
            close(fd);
        /* Huge pages where the system allows them for shared memory: the
         * daemon advises its mapping the same way (daemon/bufmem.h). */
        if (base != MAP_FAILED && size >= ((size_t)2 << 20))
            (void)madvise(base, size, MADV_HUGEPAGE);
        if (base == MAP_FAILED) {
            free_on_daemon(c, id);
            return trn_fail(trnsciErrorMemoryAllocation,
                            "%s: cannot map the daemon's %zu-byte buffer", fn, size);
        }
    }
    if (trn_ptrtable_insert(&c->ptrs, (uintptr_t)base, size, id) != 0) {
        munmap(base, maps ? size : round_to_page(size));
        free_on_daemon(c, id);
        return trn_fail(trnsciErrorMemoryAllocation, "%s: out of client memory", fn);
    }
    *out = base;
    return trnsciSuccess;
}

trnsciError_t trn_memory_alloc(trn_client *c, size_t size, void **out, const char *fn) {
    return alloc_buffer(c, size, ALLOC_DEVICE, out, fn);
}

trnsciError_t trn_memory_alloc_host(trn_client *c, size_t size, void **out, const char *fn) {
    return alloc_buffer(c, size, ALLOC_HOST, out, fn);
}

static trnsciError_t malloc_named(void **devPtr, size_t size, const char *fn) {
    if (!devPtr)
        return trn_fail(trnsciErrorInvalidValue, "%s: devPtr is NULL", fn);
    *devPtr = NULL;
    trnsciError_t e;
    trn_client *c = trn_client_get(&e);
    if (!c || (e = trn_capture_refuse_unsafe(fn)))
        return e;
    if (size == 0)
        return trn_ok();
    e = trn_memory_alloc(c, size, devPtr, fn);
    return e == trnsciSuccess ? trn_ok() : e;
}

trnsciError_t trnsciMalloc(void **devPtr, size_t size) {
    return malloc_named(devPtr, size, "trnsciMalloc");
}

trnsciError_t trnsciMallocAsync(void **devPtr, size_t size, trnsciStream_t stream) {
    (void)stream; /* allocated at once: usable by work queued on any stream afterwards */
    return malloc_named(devPtr, size, "trnsciMallocAsync");
}

trnsciError_t trn_memory_release(trn_client *c, void *p, const char *fn) {
    trn_ptr_entry entry;
    if (trn_ptrtable_remove(&c->ptrs, (uintptr_t)p, &entry) != 0)
        return trn_fail(trnsciErrorInvalidValue,
                        "%s: %p is not the start of a live trnsci allocation", fn, p);
    munmap((void *)entry.base, round_to_page(entry.size));
    return free_on_daemon(c, entry.buffer_id);
}

/* The daemon releases a buffer after the ops queued on it, whatever their
 * stream: trnsciFree and trnsciFreeAsync differ only in name. */
static trnsciError_t free_named(void *devPtr, const char *fn) {
    if (!devPtr)
        return trn_ok();
    trnsciError_t e;
    trn_client *c = trn_client_get(&e);
    if (!c || (e = trn_capture_refuse_unsafe(fn)))
        return e;
    if (trn_hostmem_contains(devPtr))
        return trn_fail(trnsciErrorInvalidValue,
                        "%s: %p is pinned host memory (free it with trnsciFreeHost)", fn, devPtr);
    e = trn_memory_release(c, devPtr, fn);
    return e == trnsciSuccess ? trn_ok() : e;
}

trnsciError_t trnsciFree(void *devPtr) {
    return free_named(devPtr, "trnsciFree");
}

trnsciError_t trnsciFreeAsync(void *devPtr, trnsciStream_t stream) {
    (void)stream;
    return free_named(devPtr, "trnsciFreeAsync");
}

trnsciError_t trn_memory_device_range(trn_client *c, const void *p, size_t count, const char *what,
                                      Trnsci__V1__BufferRef *ref) {
    trn_ptr_entry entry;
    uint64_t off;
    if (trn_ptrtable_lookup(&c->ptrs, p, &entry, &off) != 0)
        return trn_fail(trnsciErrorInvalidValue,
                        "%s (%p) is not a trnsci device pointer (not from trnsciMalloc, or "
                        "already freed)",
                        what, p);
    if (count > entry.size - off)
        return trn_fail(trnsciErrorInvalidValue,
                        "%s: %zu bytes from %p run past the end of its allocation (%llu bytes "
                        "left)",
                        what, count, p, (unsigned long long)(entry.size - off));
    trnsci__v1__buffer_ref__init(ref);
    ref->buffer_id = entry.buffer_id;
    ref->offset = off;
    return trnsciSuccess;
}

/* ---- host <-> device copies the daemon makes (gRPC, opaque pointers) ---- */

/* Whether this session's copies go through the staging buffer: the local
 * transport with opaque device pointers. */
static int staged(const trn_client *c) {
    return c->host_mapped && !c->mapped;
}

/* Takes the staging buffer (allocating it the first time), or fails with
 * staging_lock released. */
static trnsciError_t staging_take(trn_client *c, Trnsci__V1__BufferRef *ref) {
    pthread_mutex_lock(&c->staging_lock);
    if (!c->staging) {
        void *p = NULL;
        const trnsciError_t e =
            alloc_buffer(c, TRNSCI_WIRE_STAGING_BYTES, ALLOC_STAGING, &p, "trnsciMemcpy staging");
        if (e != trnsciSuccess) {
            pthread_mutex_unlock(&c->staging_lock);
            return e;
        }
        if (trn_memory_device_range(c, p, 1, "staging", ref) != trnsciSuccess) {
            pthread_mutex_unlock(&c->staging_lock);
            return trn_fail(trnsciErrorUnknown, "trnsciMemcpy: the staging buffer vanished");
        }
        c->staging = p;
        c->staging_id = ref->buffer_id;
    }
    trnsci__v1__buffer_ref__init(ref);
    ref->buffer_id = c->staging_id;
    ref->offset = 0;
    return trnsciSuccess;
}

/* Host -> device in chunks: plain Writes (the data lands at once; the
 * caller orders them), or with `ordered` Writes the daemon stages and
 * applies in the stream's order (a full launch queue: trnsciErrorBusy). */
static trnsciError_t write_chunks_on(trn_client *c, Trnsci__V1__BufferRef dst, const void *src,
                                     size_t count, int ordered, trnsciStream_t stream) {
    Trnsci__V1__WriteRequest req = TRNSCI__V1__WRITE_REQUEST__INIT;
    req.session_id = c->session_id;
    req.dst = &dst;
    if (ordered) {
        req.ordered = 1;
        req.stream_id = trn_stream_id(stream);
        req.timeout_us = trn_stream_timeout_us(c, stream);
    }
    Trnsci__V1__BufferRef sref;
    const int via_staging = staged(c);
    trnsciError_t e = trnsciSuccess;
    if (via_staging) {
        if ((e = staging_take(c, &sref)))
            return e;
        req.src = &sref;
    }
    const size_t chunk = via_staging ? TRNSCI_WIRE_STAGING_BYTES : (size_t)c->chunk_bytes;
    for (size_t done = 0; done < count;) {
        const size_t n = count - done < chunk ? count - done : chunk;
        if (via_staging) {
            memcpy(c->staging, (const uint8_t *)src + done, n);
            req.length = n;
        } else {
            req.data.data = (uint8_t *)src + done;
            req.data.len = n;
        }
        if (ordered)
            trn_client_note_op(c, stream);
        /* An ordered Write's reply comes once the chunk is staged, so the
         * usual deadline applies (the daemon does not carry it over to the
         * queued copy). */
        e = trn_client_call(c, TRN_WIRE_WRITE, &req.base, NULL, NULL, TRN_CALL_TIMEOUT_MS);
        if (ordered && e == trnsciErrorMemoryAllocation) /* queue limit or staging quota */
            e = trn_retag(trnsciErrorBusy);
        if (e != trnsciSuccess)
            break;
        done += n;
        dst.offset += n;
    }
    if (via_staging)
        pthread_mutex_unlock(&c->staging_lock);
    return e;
}

static trnsciError_t write_chunks(trn_client *c, Trnsci__V1__BufferRef dst, const void *src,
                                  size_t count) {
    return write_chunks_on(c, dst, src, count, 0, NULL);
}

static trnsciError_t read_chunks(trn_client *c, Trnsci__V1__BufferRef src, void *dst,
                                 size_t count) {
    Trnsci__V1__ReadRequest req = TRNSCI__V1__READ_REQUEST__INIT;
    req.session_id = c->session_id;
    req.src = &src;
    Trnsci__V1__BufferRef sref;
    const int via_staging = staged(c);
    trnsciError_t e = trnsciSuccess;
    if (via_staging) {
        if ((e = staging_take(c, &sref)))
            return e;
        req.dst = &sref;
    }
    const size_t chunk = via_staging ? TRNSCI_WIRE_STAGING_BYTES : (size_t)c->chunk_bytes;
    for (size_t done = 0; done < count;) {
        const size_t n = count - done < chunk ? count - done : chunk;
        req.length = n;
        Trnsci__V1__ReadReply *r = NULL;
        e = trn_client_call(c, TRN_WIRE_READ, &req.base, &trnsci__v1__read_reply__descriptor,
                            (ProtobufCMessage **)&r, TRN_CALL_TIMEOUT_MS);
        if (e != trnsciSuccess)
            break;
        const size_t got = via_staging ? n : r->data.len;
        if (got == n)
            memcpy((char *)dst + done, via_staging ? c->staging : r->data.data, n);
        trnsci__v1__read_reply__free_unpacked(r, NULL);
        if (got != n) {
            e = trn_fail(trnsciErrorUnknown, "trnsciMemcpy: the daemon returned a short read");
            break;
        }
        done += n;
        src.offset += n;
    }
    if (via_staging)
        pthread_mutex_unlock(&c->staging_lock);
    return e;
}

/* Pinned host memory is host memory, though on the local transport it is
 * also in the pointer table. */
static int is_device(trn_client *c, const void *p) {
    trn_ptr_entry e;
    uint64_t off;
    return p && trn_ptrtable_lookup(&c->ptrs, p, &e, &off) == 0 && !trn_hostmem_contains(p);
}

/* trnsciMemcpyDefault becomes the direction the pointers imply. */
static trnsciMemcpyKind resolve_kind(trn_client *c, const void *dst, const void *src,
                                     trnsciMemcpyKind kind) {
    if (kind != trnsciMemcpyDefault)
        return kind;
    return is_device(c, dst)
               ? (is_device(c, src) ? trnsciMemcpyDeviceToDevice : trnsciMemcpyHostToDevice)
               : (is_device(c, src) ? trnsciMemcpyDeviceToHost : trnsciMemcpyHostToHost);
}

void trn_memory_copy_op(Trnsci__V1__Op *op, Trnsci__V1__CopyOp *copy, Trnsci__V1__BufferRef *dst,
                        Trnsci__V1__BufferRef *src, size_t count) {
    trnsci__v1__copy_op__init(copy);
    copy->dst = dst;
    copy->src = src;
    copy->bytes = count;
    trnsci__v1__op__init(op);
    op->kind_case = TRNSCI__V1__OP__KIND_COPY;
    op->copy = copy;
}

/* D2D (and memset) run as ops on the default stream, then wait. */
static trnsciError_t submit_and_wait(trn_client *c, Trnsci__V1__Op *op) {
    trnsciError_t e = trn_client_submit(c, NULL, op);
    if (e == trnsciSuccess)
        e = trn_client_sync_all(c);
    return e;
}

trnsciError_t trnsciMemcpy(void *dst, const void *src, size_t count, trnsciMemcpyKind kind) {
    trnsciError_t e;
    trn_client *c = trn_client_get(&e);
    if (!c)
        return e;
    if (count == 0)
        return trn_ok();
    if (!dst || !src)
        return trn_fail(trnsciErrorInvalidValue, "trnsciMemcpy: dst or src is NULL");
    kind = resolve_kind(c, dst, src, kind);
    Trnsci__V1__BufferRef dref, sref;
    /* Pinned memory that is a daemon buffer, when device memory is not
     * mapped here: the daemon copies it directly, without staging. */
    if (!c->mapped && c->host_mapped &&
        ((kind == trnsciMemcpyHostToDevice && trn_hostmem_daemon_range(src, count)) ||
         (kind == trnsciMemcpyDeviceToHost && trn_hostmem_daemon_range(dst, count))))
        kind = trnsciMemcpyDeviceToDevice;
    switch (kind) {
    case trnsciMemcpyHostToHost: memmove(dst, src, count); return trn_ok();
    case trnsciMemcpyHostToDevice:
        if ((e = trn_memory_device_range(c, dst, count, "trnsciMemcpy: dst", &dref)) ||
            (e = trn_client_order_after_work(c)))
            return e;
        if (c->mapped)
            memmove(dst, src, count);
        else if ((e = write_chunks(c, dref, src, count)))
            return e;
        return trn_ok();
    case trnsciMemcpyDeviceToHost:
        if ((e = trn_memory_device_range(c, src, count, "trnsciMemcpy: src", &sref)) ||
            (e = trn_client_order_after_work(c)))
            return e;
        if (c->mapped)
            memmove(dst, src, count);
        else if ((e = read_chunks(c, sref, dst, count)))
            return e;
        return trn_ok();
    case trnsciMemcpyDeviceToDevice: {
        if ((e = trn_memory_device_range(c, dst, count, "trnsciMemcpy: dst", &dref)) ||
            (e = trn_memory_device_range(c, src, count, "trnsciMemcpy: src", &sref)))
            return e;
        if (c->mapped) {
            if ((e = trn_client_order_after_work(c)))
                return e;
            memmove(dst, src, count);
            return trn_ok();
        }
        Trnsci__V1__CopyOp copy;
        Trnsci__V1__Op op;
        trn_memory_copy_op(&op, &copy, &dref, &sref, count);
        e = submit_and_wait(c, &op);
        return e == trnsciSuccess ? trn_ok() : e;
    }
    case trnsciMemcpyDefault: break;
    }
    return trn_fail(trnsciErrorInvalidMemcpyDirection, "trnsciMemcpy: kind %d is not valid",
                    (int)kind);
}

void trn_memory_memset_op(Trnsci__V1__Op *op, Trnsci__V1__MemsetOp *m, Trnsci__V1__BufferRef *ref,
                          int value, size_t count) {
    trnsci__v1__memset_op__init(m);
    m->dst = ref;
    m->value = (uint32_t)(unsigned char)value;
    m->bytes = count;
    trnsci__v1__op__init(op);
    op->kind_case = TRNSCI__V1__OP__KIND_MEMSET;
    op->memset = m;
}

trnsciError_t trnsciMemset(void *devPtr, int value, size_t count) {
    trnsciError_t e;
    trn_client *c = trn_client_get(&e);
    if (!c)
        return e;
    if (count == 0)
        return trn_ok();
    Trnsci__V1__BufferRef ref;
    if ((e = trn_memory_device_range(c, devPtr, count, "trnsciMemset: devPtr", &ref)))
        return e;
    if (c->mapped) {
        if ((e = trn_client_order_after_work(c)))
            return e;
        memset(devPtr, value, count);
        return trn_ok();
    }
    Trnsci__V1__MemsetOp m;
    Trnsci__V1__Op op;
    trn_memory_memset_op(&op, &m, &ref, value, count);
    e = submit_and_wait(c, &op);
    return e == trnsciSuccess ? trn_ok() : e;
}

/* ---- stream-ordered copies ---------------------------------------------------------- */

/* Host → device in stream order: ordered Writes, each staged by the daemon
 * before it replies (so src may be reused once this returns). */
static trnsciError_t write_ordered(trn_client *c, trnsciStream_t stream, Trnsci__V1__BufferRef dst,
                                   const void *src, size_t count) {
    return write_chunks_on(c, dst, src, count, 1, stream);
}

/* Device → host over gRPC in stream order: one StageOutOp per chunk, each
 * delivered into dst by the fetch thread. */
static trnsciError_t stage_out(trn_client *c, trnsciStream_t stream, Trnsci__V1__BufferRef src,
                               void *dst, size_t count) {
    struct trnsciStream_st *st = trn_stream_of(c, stream);
    Trnsci__V1__StageOutOp so = TRNSCI__V1__STAGE_OUT_OP__INIT;
    so.src = &src;
    Trnsci__V1__Op op = TRNSCI__V1__OP__INIT;
    op.kind_case = TRNSCI__V1__OP__KIND_STAGE_OUT;
    op.stage_out = &so;
    for (size_t done = 0; done < count;) {
        const size_t n = count - done < c->chunk_bytes ? count - done : (size_t)c->chunk_bytes;
        so.bytes = n;
        so.ticket = trn_fetch_ticket();
        trnsciError_t e = trn_client_submit(c, stream, &op);
        if (e != trnsciSuccess)
            return e;
        const uint64_t seq = trn_fetch_enqueue(c, so.ticket, (char *)dst + done, n);
        if (seq == 0)
            return trnsciErrorMemoryAllocation;
        uint_fast64_t cur = atomic_load(&st->fetch_mark);
        while (cur < seq && !atomic_compare_exchange_weak(&st->fetch_mark, &cur, seq)) {
        }
        done += n;
        src.offset += n;
    }
    return trnsciSuccess;
}

trnsciError_t trnsciMemcpyAsync(void *dst, const void *src, size_t count, trnsciMemcpyKind kind,
                                trnsciStream_t stream) {
    trnsciError_t e;
    trn_client *c = trn_client_get(&e);
    if (!c)
        return e;
    if (count == 0)
        return trn_ok();
    if (!dst || !src)
        return trn_fail(trnsciErrorInvalidValue, "trnsciMemcpyAsync: dst or src is NULL");
    kind = resolve_kind(c, dst, src, kind);
    Trnsci__V1__BufferRef dref, sref;
    /* Host memory cannot be part of a graph (trnsci_graph.h). */
    if (kind != trnsciMemcpyDeviceToDevice &&
        (e = trn_capture_refuse_stream(c, stream, "trnsciMemcpyAsync to or from host memory")))
        return e;
    /* Pinned memory that is a daemon buffer: the daemon copies, in stream
     * order, and the call does not wait. */
    const int pinned_src =
        kind == trnsciMemcpyHostToDevice && c->host_mapped && trn_hostmem_daemon_range(src, count);
    const int pinned_dst =
        kind == trnsciMemcpyDeviceToHost && c->host_mapped && trn_hostmem_daemon_range(dst, count);
    if (pinned_src || pinned_dst)
        kind = trnsciMemcpyDeviceToDevice;
    switch (kind) {
    case trnsciMemcpyHostToHost: memmove(dst, src, count); return trn_ok();
    case trnsciMemcpyHostToDevice:
        if ((e = trn_memory_device_range(c, dst, count, "trnsciMemcpyAsync: dst", &dref)))
            return e;
        if (c->mapped) {
            if ((e = trn_client_order_after_stream(c, stream)))
                return e;
            memmove(dst, src, count);
        } else if ((e = write_ordered(c, stream, dref, src, count))) {
            return e;
        }
        return trn_ok();
    case trnsciMemcpyDeviceToHost:
        if ((e = trn_memory_device_range(c, src, count, "trnsciMemcpyAsync: src", &sref)))
            return e;
        if (c->mapped) {
            if ((e = trn_client_order_after_stream(c, stream)))
                return e;
            memmove(dst, src, count);
        } else if (staged(c)) {
            /* Through the staging buffer once the stream gets there (as
             * CUDA's pageable copies, the call returns with the data). */
            if ((e = trn_client_order_after_stream(c, stream)) ||
                (e = read_chunks(c, sref, dst, count)))
                return e;
        } else if ((e = stage_out(c, stream, sref, dst, count))) {
            return e;
        }
        return trn_ok();
    case trnsciMemcpyDeviceToDevice: {
        if ((e = trn_memory_device_range(c, dst, count, "trnsciMemcpyAsync: dst", &dref)) ||
            (e = trn_memory_device_range(c, src, count, "trnsciMemcpyAsync: src", &sref)))
            return e;
        Trnsci__V1__CopyOp copy;
        Trnsci__V1__Op op;
        trn_memory_copy_op(&op, &copy, &dref, &sref, count);
        e = trn_client_submit(c, stream, &op);
        return e == trnsciSuccess ? trn_ok() : e;
    }
    case trnsciMemcpyDefault: break;
    }
    return trn_fail(trnsciErrorInvalidMemcpyDirection, "trnsciMemcpyAsync: kind %d is not valid",
                    (int)kind);
}

trnsciError_t trnsciMemsetAsync(void *devPtr, int value, size_t count, trnsciStream_t stream) {
    trnsciError_t e;
    trn_client *c = trn_client_get(&e);
    if (!c)
        return e;
    if (count == 0)
        return trn_ok();
    Trnsci__V1__BufferRef ref;
    if ((e = trn_memory_device_range(c, devPtr, count, "trnsciMemsetAsync: devPtr", &ref)))
        return e;
    Trnsci__V1__MemsetOp m;
    Trnsci__V1__Op op;
    trn_memory_memset_op(&op, &m, &ref, value, count);
    e = trn_client_submit(c, stream, &op);
    return e == trnsciSuccess ? trn_ok() : e;
}

/* ---- 2D copies and memsets ---------------------------------------------------------- */

/* The bytes a pitched matrix spans: (height - 1) * pitch + width (height,
 * width > 0), or 0 on overflow. */
static size_t span_2d(size_t pitch, size_t width, size_t height) {
    if (height - 1 > (SIZE_MAX - width) / (pitch ? pitch : 1))
        return 0;
    return (height - 1) * pitch + width;
}

/* Checks a 2D copy's arguments; on success *kind is resolved and the
 * device sides' spans are known to lie in one allocation each. Returns
 * trnsciSuccess with *nothing set when there is nothing to copy. */
static trnsciError_t check_2d(trn_client *c, void *dst, size_t dpitch, const void *src,
                              size_t spitch, size_t width, size_t height, trnsciMemcpyKind *kind,
                              int *nothing, const char *fn) {
    *nothing = width == 0 || height == 0;
    if (*nothing)
        return trnsciSuccess;
    if (!dst || !src)
        return trn_fail(trnsciErrorInvalidValue, "%s: dst or src is NULL", fn);
    if (dpitch < width || spitch < width)
        return trn_fail(trnsciErrorInvalidPitchValue,
                        "%s: a pitch (dpitch %zu, spitch %zu) is less than the width %zu", fn,
                        dpitch, spitch, width);
    if ((unsigned)*kind > (unsigned)trnsciMemcpyDefault)
        return trn_fail(trnsciErrorInvalidMemcpyDirection, "%s: kind %d is not valid", fn,
                        (int)*kind);
    const size_t dspan = span_2d(dpitch, width, height), sspan = span_2d(spitch, width, height);
    if (!dspan || !sspan)
        return trn_fail(trnsciErrorInvalidValue,
                        "%s: %zu rows of pitch %zu overflow the address space", fn, height,
                        dspan ? spitch : dpitch);
    *kind = resolve_kind(c, dst, src, *kind);
    Trnsci__V1__BufferRef ref;
    char what[64];
    trnsciError_t e;
    if (*kind == trnsciMemcpyHostToDevice || *kind == trnsciMemcpyDeviceToDevice) {
        snprintf(what, sizeof(what), "%s: dst", fn);
        if ((e = trn_memory_device_range(c, dst, dspan, what, &ref)))
            return e;
    }
    if (*kind == trnsciMemcpyDeviceToHost || *kind == trnsciMemcpyDeviceToDevice) {
        snprintf(what, sizeof(what), "%s: src", fn);
        if ((e = trn_memory_device_range(c, src, sspan, what, &ref)))
            return e;
    }
    return trnsciSuccess;
}

/* Row by row, as trnsciMemcpyAsync on `stream` (the arguments checked). */
static trnsciError_t copy_rows(void *dst, size_t dpitch, const void *src, size_t spitch,
                               size_t width, size_t height, trnsciMemcpyKind kind,
                               trnsciStream_t stream) {
    for (size_t r = 0; r < height; r++) {
        const trnsciError_t e = trnsciMemcpyAsync(
            (char *)dst + r * dpitch, (const char *)src + r * spitch, width, kind, stream);
        if (e != trnsciSuccess)
            return e;
    }
    return trnsciSuccess;
}

trnsciError_t trnsciMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                             size_t height, trnsciMemcpyKind kind) {
    trnsciError_t e;
    trn_client *c = trn_client_get(&e);
    if (!c)
        return e;
    int nothing;
    if ((e = check_2d(c, dst, dpitch, src, spitch, width, height, &kind, &nothing,
                      "trnsciMemcpy2D")))
        return e;
    if (nothing)
        return trn_ok();
    if (dpitch == width && spitch == width)
        return trnsciMemcpy(dst, src, width * height, kind);
    if (kind == trnsciMemcpyHostToHost) {
        for (size_t r = 0; r < height; r++)
            memmove((char *)dst + r * dpitch, (const char *)src + r * spitch, width);
        return trn_ok();
    }
    /* As trnsciMemcpy: after all work queued so far, complete on return. */
    if ((e = trn_client_order_after_work(c)) ||
        (e = copy_rows(dst, dpitch, src, spitch, width, height, kind, NULL)) ||
        (e = trn_client_order_after_work(c)))
        return e;
    return trn_ok();
}

trnsciError_t trnsciMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch,
                                  size_t width, size_t height, trnsciMemcpyKind kind,
                                  trnsciStream_t stream) {
    trnsciError_t e;
    trn_client *c = trn_client_get(&e);
    if (!c)
        return e;
    int nothing;
    if ((e = check_2d(c, dst, dpitch, src, spitch, width, height, &kind, &nothing,
                      "trnsciMemcpy2DAsync")))
        return e;
    if (nothing)
        return trn_ok();
    if (dpitch == width && spitch == width)
        return trnsciMemcpyAsync(dst, src, width * height, kind, stream);
    e = copy_rows(dst, dpitch, src, spitch, width, height, kind, stream);
    return e == trnsciSuccess ? trn_ok() : e;
}

/* Checks a 2D memset; *nothing when there is nothing to set. */
static trnsciError_t check_memset_2d(trn_client *c, void *devPtr, size_t pitch, size_t width,
                                     size_t height, int *nothing, const char *fn) {
    *nothing = width == 0 || height == 0;
    if (*nothing)
        return trnsciSuccess;
    if (pitch < width)
        return trn_fail(trnsciErrorInvalidValue, "%s: pitch %zu is less than the width %zu", fn,
                        pitch, width);
    const size_t span = span_2d(pitch, width, height);
    if (!span)
        return trn_fail(trnsciErrorInvalidValue,
                        "%s: %zu rows of pitch %zu overflow the address space", fn, height, pitch);
    char what[64];
    snprintf(what, sizeof(what), "%s: devPtr", fn);
    Trnsci__V1__BufferRef ref;
    return trn_memory_device_range(c, devPtr, span, what, &ref);
}

trnsciError_t trnsciMemset2D(void *devPtr, size_t pitch, int value, size_t width, size_t height) {
    trnsciError_t e;
    trn_client *c = trn_client_get(&e);
    if (!c)
        return e;
    int nothing;
    if ((e = check_memset_2d(c, devPtr, pitch, width, height, &nothing, "trnsciMemset2D")))
        return e;
    if (nothing)
        return trn_ok();
    if (pitch == width)
        return trnsciMemset(devPtr, value, width * height);
    if ((e = trn_client_order_after_work(c)))
        return e;
    if (c->mapped) {
        for (size_t r = 0; r < height; r++)
            memset((char *)devPtr + r * pitch, value, width);
        return trn_ok();
    }
    for (size_t r = 0; r < height; r++)
        if ((e = trnsciMemsetAsync((char *)devPtr + r * pitch, value, width, NULL)))
            return e;
    e = trn_client_sync_all(c);
    return e == trnsciSuccess ? trn_ok() : e;
}

trnsciError_t trnsciMemset2DAsync(void *devPtr, size_t pitch, int value, size_t width,
                                  size_t height, trnsciStream_t stream) {
    trnsciError_t e;
    trn_client *c = trn_client_get(&e);
    if (!c)
        return e;
    int nothing;
    if ((e = check_memset_2d(c, devPtr, pitch, width, height, &nothing, "trnsciMemset2DAsync")))
        return e;
    if (nothing)
        return trn_ok();
    if (pitch == width)
        return trnsciMemsetAsync(devPtr, value, width * height, stream);
    for (size_t r = 0; r < height; r++)
        if ((e = trnsciMemsetAsync((char *)devPtr + r * pitch, value, width, stream)))
            return e;
    return trn_ok();
}

/* ---- memory info ---------------------------------------------------------------------- */

/* MemAvailable (or, without /proc, the free pages) of this machine, bytes. */
static uint64_t available_bytes(void) {
    FILE *f = fopen("/proc/meminfo", "r");
    if (f) {
        char line[128];
        unsigned long long kb;
        while (fgets(line, sizeof(line), f))
            if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1) {
                fclose(f);
                return (uint64_t)kb * 1024u;
            }
        fclose(f);
    }
    return (uint64_t)sysconf(_SC_AVPHYS_PAGES) * (uint64_t)sysconf(_SC_PAGESIZE);
}

trnsciError_t trn_memory_info(trn_client *c, uint64_t *free_bytes, uint64_t *total_bytes) {
    uint64_t total = c->max_session_bytes ? c->max_session_bytes : UINT64_MAX;
    uint64_t avail = UINT64_MAX;
    if (c->mapped) {
        const uint64_t phys = (uint64_t)sysconf(_SC_PHYS_PAGES) * (uint64_t)sysconf(_SC_PAGESIZE);
        if (phys && phys < total)
            total = phys;
        avail = available_bytes();
    }
    const uint64_t held = trn_ptrtable_bytes(&c->ptrs);
    uint64_t free_now = held < total ? total - held : 0;
    if (avail < free_now)
        free_now = avail;
    *free_bytes = free_now;
    *total_bytes = total;
    return trnsciSuccess;
}

trnsciError_t trnsciMemGetInfo(size_t *free, size_t *total) {
    if (!free || !total)
        return trn_fail(trnsciErrorInvalidValue, "trnsciMemGetInfo: free or total is NULL");
    trnsciError_t e;
    trn_client *c = trn_client_get(&e);
    if (!c)
        return e;
    uint64_t f, t;
    trn_memory_info(c, &f, &t);
    *free = f > SIZE_MAX ? SIZE_MAX : (size_t)f;
    *total = t > SIZE_MAX ? SIZE_MAX : (size_t)t;
    return trn_ok();
}
