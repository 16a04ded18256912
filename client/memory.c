/*
 * memory.c — trnsciMalloc/Free/Memcpy/Memset and their stream-ordered
 * (*Async) forms.
 *
 * Local transport (c->mapped): a device pointer is the client's mapping of
 * the buffer's shared memory. The daemon computes on the same pages, so
 * host↔device copies are plain memcpy here, after waiting for queued work
 * (all of it for trnsciMemcpy, the stream's for trnsciMemcpyAsync).
 *
 * gRPC: a device pointer is the start of a reserved, inaccessible address
 * range of the allocation's size (see ptrtable.h). Host↔device copies move
 * in chunks of at most chunk_bytes, so no single message approaches gRPC's
 * size limits: trnsciMemcpy uses plain Write/Read after synchronising;
 * trnsciMemcpyAsync uses ordered Writes (staged by the daemon, copied in
 * stream order) and StageOutOps whose data the fetch thread (fetch.c)
 * delivers.
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

trnsciError_t trnsciMalloc(void **devPtr, size_t size) {
    if (!devPtr)
        return trn_fail(trnsciErrorInvalidValue, "trnsciMalloc: devPtr is NULL");
    *devPtr = NULL;
    trnsciError_t e;
    trn_client *c = trn_client_get(&e);
    if (!c || (e = trn_capture_refuse_unsafe("trnsciMalloc")))
        return e;
    if (size == 0)
        return trn_ok();
    if (size > SIZE_MAX / 2)
        return trn_fail(trnsciErrorMemoryAllocation, "trnsciMalloc: %zu bytes is too large", size);
    void *base = MAP_FAILED;
    if (!c->mapped) {
        base = mmap(NULL, round_to_page(size), PROT_NONE,
                    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (base == MAP_FAILED)
            return trn_fail(trnsciErrorMemoryAllocation,
                            "trnsciMalloc: cannot reserve %zu bytes of address space", size);
    }

    Trnsci__V1__AllocRequest req = TRNSCI__V1__ALLOC_REQUEST__INIT;
    req.session_id = c->session_id;
    req.bytes = size;
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
    if (c->mapped) {
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
                            "trnsciMalloc: cannot map the daemon's %zu-byte buffer", size);
        }
    }
    if (trn_ptrtable_insert(&c->ptrs, (uintptr_t)base, size, id) != 0) {
        munmap(base, c->mapped ? size : round_to_page(size));
        free_on_daemon(c, id);
        return trn_fail(trnsciErrorMemoryAllocation, "trnsciMalloc: out of client memory");
    }
    *devPtr = base;
    return trn_ok();
}

trnsciError_t trnsciFree(void *devPtr) {
    if (!devPtr)
        return trn_ok();
    trnsciError_t e;
    trn_client *c = trn_client_get(&e);
    if (!c || (e = trn_capture_refuse_unsafe("trnsciFree")))
        return e;
    trn_ptr_entry entry;
    if (trn_ptrtable_remove(&c->ptrs, (uintptr_t)devPtr, &entry) != 0)
        return trn_fail(trnsciErrorInvalidValue,
                        "trnsciFree: %p is not the start of a live trnsci allocation", devPtr);
    munmap((void *)entry.base, round_to_page(entry.size));
    e = free_on_daemon(c, entry.buffer_id);
    return e == trnsciSuccess ? trn_ok() : e;
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

static trnsciError_t write_chunks(trn_client *c, Trnsci__V1__BufferRef dst, const void *src,
                                  size_t count) {
    Trnsci__V1__WriteRequest req = TRNSCI__V1__WRITE_REQUEST__INIT;
    req.session_id = c->session_id;
    req.dst = &dst;
    for (size_t done = 0; done < count;) {
        const size_t n = count - done < c->chunk_bytes ? count - done : (size_t)c->chunk_bytes;
        req.data.data = (uint8_t *)src + done;
        req.data.len = n;
        const trnsciError_t e =
            trn_client_call(c, TRN_WIRE_WRITE, &req.base, NULL, NULL, TRN_CALL_TIMEOUT_MS);
        if (e != trnsciSuccess)
            return e;
        done += n;
        dst.offset += n;
    }
    return trnsciSuccess;
}

static trnsciError_t read_chunks(trn_client *c, Trnsci__V1__BufferRef src, void *dst,
                                 size_t count) {
    Trnsci__V1__ReadRequest req = TRNSCI__V1__READ_REQUEST__INIT;
    req.session_id = c->session_id;
    req.src = &src;
    for (size_t done = 0; done < count;) {
        const size_t n = count - done < c->chunk_bytes ? count - done : (size_t)c->chunk_bytes;
        req.length = n;
        Trnsci__V1__ReadReply *r = NULL;
        const trnsciError_t e =
            trn_client_call(c, TRN_WIRE_READ, &req.base, &trnsci__v1__read_reply__descriptor,
                            (ProtobufCMessage **)&r, TRN_CALL_TIMEOUT_MS);
        if (e != trnsciSuccess)
            return e;
        const int short_read = r->data.len != n;
        if (!short_read)
            memcpy((char *)dst + done, r->data.data, n);
        trnsci__v1__read_reply__free_unpacked(r, NULL);
        if (short_read)
            return trn_fail(trnsciErrorUnknown, "trnsciMemcpy: the daemon returned a short read");
        done += n;
        src.offset += n;
    }
    return trnsciSuccess;
}

static int is_device(trn_client *c, const void *p) {
    trn_ptr_entry e;
    uint64_t off;
    return p && trn_ptrtable_lookup(&c->ptrs, p, &e, &off) == 0;
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

/* Host → device over gRPC in stream order: ordered Writes, each staged by
 * the daemon before it replies (so src may be reused once this returns). */
static trnsciError_t write_ordered(trn_client *c, trnsciStream_t stream, Trnsci__V1__BufferRef dst,
                                   const void *src, size_t count) {
    Trnsci__V1__WriteRequest req = TRNSCI__V1__WRITE_REQUEST__INIT;
    req.session_id = c->session_id;
    req.dst = &dst;
    req.ordered = 1;
    req.stream_id = trn_stream_id(stream);
    req.timeout_us = trn_stream_timeout_us(c, stream);
    for (size_t done = 0; done < count;) {
        const size_t n = count - done < c->chunk_bytes ? count - done : (size_t)c->chunk_bytes;
        req.data.data = (uint8_t *)src + done;
        req.data.len = n;
        trn_client_note_op(c, stream);
        /* The reply comes once the chunk is staged, so the usual deadline
         * applies (the daemon does not carry it over to the queued copy). */
        const trnsciError_t e =
            trn_client_call(c, TRN_WIRE_WRITE, &req.base, NULL, NULL, TRN_CALL_TIMEOUT_MS);
        if (e == trnsciErrorMemoryAllocation) /* queue limit or staging quota: retry later */
            return trn_retag(trnsciErrorBusy);
        if (e != trnsciSuccess)
            return e;
        done += n;
        dst.offset += n;
    }
    return trnsciSuccess;
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
