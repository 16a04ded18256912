/*
 * validate.c — the validation context: messages, buffer regions, plan
 * handles and the references an op holds; and the dispatch of a wire op to
 * its kind's validator through the list of kinds (ops/op_kinds.h).
 */
#include "ops/validate/validate.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "ops/validate/checked.h"

void trn_vmsg(trn_vctx *vx, const char *fmt, ...) {
    if (!vx->err || vx->errlen == 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(vx->err, vx->errlen, fmt, ap);
    va_end(ap);
}

void trn_op_refs_init(trn_op_refs *refs, const trn_vhost *host) {
    refs->host = host;
    refs->n = 0;
    refs->plan = NULL;
    refs->plan_part = 0;
    refs->more = NULL;
    refs->nmore = refs->more_cap = 0;
    refs->owned = NULL;
    refs->owned_pool = NULL;
}

void *trn_vowned(trn_vctx *vx, uint64_t bytes) {
    if (bytes == 0 || bytes > SIZE_MAX)
        return NULL;
    const trn_vhost *h = vx->refs->host;
    void *p = h && h->owned_alloc ? h->owned_alloc(vx->ctx, (size_t)bytes, &vx->refs->owned_pool)
                                  : calloc(1, (size_t)bytes);
    vx->refs->owned = p;
    return p;
}

void trn_op_refs_release(trn_op_refs *refs) {
    const trn_vhost *h = refs->host;
    for (int i = 0; i < refs->n; i++)
        h->buffer_put(refs->buf[i]);
    refs->n = 0;
    for (int i = 0; i < refs->nmore; i++)
        h->buffer_put(refs->more[i]);
    free(refs->more);
    if (refs->owned && h->owned_free)
        h->owned_free(refs->owned_pool, refs->owned);
    else
        free(refs->owned);
    refs->more = NULL;
    refs->owned = NULL;
    refs->nmore = refs->more_cap = 0;
    if (refs->plan)
        h->plan_put(refs->plan);
    refs->plan = NULL;
}

/* Room for one more reference: in buf[], or (many) in the growing more[]. */
static int refs_room(trn_op_refs *refs, int many) {
    if (refs->n < TRN_OP_MAX_BUFFERS)
        return 1;
    if (!many)
        return 0;
    if (refs->nmore == refs->more_cap) {
        if (refs->more_cap > INT_MAX / 2)
            return 0;
        const int cap = refs->more_cap ? 2 * refs->more_cap : 16;
        void **m = realloc(refs->more, (size_t)cap * sizeof(*m));
        if (!m)
            return 0;
        refs->more = m;
        refs->more_cap = cap;
    }
    return 1;
}

static void refs_hold(trn_op_refs *refs, void *held) {
    if (refs->n < TRN_OP_MAX_BUFFERS)
        refs->buf[refs->n++] = held;
    else
        refs->more[refs->nmore++] = held;
}

/* Messages name the operand "fn: name" (fn NULL: "name"), formatted only
 * when there is a message: validation runs on every launch. */
#define NAME_FMT "%s%s%s"
#define NAME_ARGS fn ? fn : "", fn ? ": " : "", name

static trn_wire_code region(trn_vctx *vx, const Trnsci__V1__BufferRef *ref, uint64_t bytes,
                            uint64_t align, const char *fn, const char *name, void **out,
                            int many) {
    const uint64_t id = ref ? ref->buffer_id : 0, off = ref ? ref->offset : 0;
    if (id == 0) {
        if (bytes == 0) {
            *out = NULL;
            return TRN_WIRE_OK;
        }
        trn_vmsg(vx, NAME_FMT ": no buffer given but %llu bytes are needed", NAME_ARGS,
                 (unsigned long long)bytes);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    if (!refs_room(vx->refs, many)) {
        trn_vmsg(vx, NAME_FMT ": too many buffer arguments", NAME_ARGS);
        return many ? TRN_WIRE_RESOURCE_EXHAUSTED : TRN_WIRE_INVALID_ARGUMENT;
    }
    trn_vbuffer b;
    void *held = vx->host->buffer_get(vx->ctx, id, &b);
    if (!held) {
        trn_vmsg(vx,
                 NAME_FMT ": buffer %llu does not exist in this session (freed or never allocated)",
                 NAME_ARGS, (unsigned long long)id);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    uint64_t end;
    if (off > b.size || ck_add(off, bytes, &end) || end > b.size) {
        trn_vmsg(vx, NAME_FMT ": needs %llu bytes at offset %llu but buffer %llu holds %llu bytes",
                 NAME_ARGS, (unsigned long long)bytes, (unsigned long long)off,
                 (unsigned long long)id, (unsigned long long)b.size);
        vx->host->buffer_put(held);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    if (align > 1 && off % align != 0) {
        trn_vmsg(vx, NAME_FMT ": offset %llu is not a multiple of the element size %llu", NAME_ARGS,
                 (unsigned long long)off, (unsigned long long)align);
        vx->host->buffer_put(held);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    refs_hold(vx->refs, held);
    *out = (char *)b.data + off;
    return TRN_WIRE_OK;
}

trn_wire_code trn_vregion(trn_vctx *vx, const Trnsci__V1__BufferRef *ref, uint64_t bytes,
                          uint64_t align, const char *what, void **out) {
    return region(vx, ref, bytes, align, NULL, what, out, 0);
}

trn_wire_code trn_vregion_named(trn_vctx *vx, const Trnsci__V1__BufferRef *ref, uint64_t bytes,
                                uint64_t align, const char *fn, const char *name, void **out) {
    return region(vx, ref, bytes, align, fn, name, out, 0);
}

trn_wire_code trn_vregion_many(trn_vctx *vx, const Trnsci__V1__BufferRef *ref, uint64_t bytes,
                               uint64_t align, const char *what, void **out) {
    return region(vx, ref, bytes, align, NULL, what, out, 1);
}

int trn_vplan_get(trn_vctx *vx, uint32_t id, trn_vplan *out) {
    void *held = id ? vx->host->plan_get(vx->ctx, id, out) : NULL;
    if (!held)
        return -1;
    vx->refs->plan = held; /* released with refs, on failure too */
    return 0;
}

/* Each kind's validator, in the order of the list (trn_op_index_of). */
typedef trn_wire_code (*validator)(trn_vctx *vx, const Trnsci__V1__Op *op, trn_op_desc *out);
static const validator validators[TRN_OP_KIND_COUNT] = {
#define VALIDATOR(kind, value, wire, stem, field, label, title, family, engine) trn_vop_##stem,
    TRN_OP_KINDS(VALIDATOR)
#undef VALIDATOR
};

/* A kind's number is its wire case's (ops/op_kinds.h). */
#define SAME_NUMBER(kind, value, wire, stem, field, label, title, family, engine)                  \
    _Static_assert((int)TRNSCI__V1__OP__KIND_##wire == TRN_OP_##kind,                              \
                   "TRN_OP_" #kind " is numbered as its wire case " #wire);
TRN_OP_KINDS(SAME_NUMBER)
#undef SAME_NUMBER

trn_wire_code trn_validate_wire_op(trn_vctx *vx, const Trnsci__V1__Op *op, trn_op_desc *out) {
    if (!op) {
        trn_vmsg(vx, "Submit: no op given");
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    const int i = trn_op_index_of((int)op->kind_case);
    if (i < 0) {
        trn_vmsg(vx, "Submit: op kind %d is not supported by this daemon", (int)op->kind_case);
        return TRN_WIRE_UNIMPLEMENTED;
    }
    out->kind = (trn_op_kind)op->kind_case;
    const trn_wire_code rc = validators[i](vx, op, out);
    if (rc != TRN_WIRE_OK)
        trn_op_refs_release(vx->refs);
    return rc;
}

trn_wire_code trn_validate_staged(uint64_t len, const char *what, char *err, size_t errlen) {
    if (len <= TRNSCI_WIRE_STAGING_BYTES)
        return TRN_WIRE_OK;
    snprintf(err, errlen, "%s: %llu bytes exceeds the staging buffer's limit of %u bytes", what,
             (unsigned long long)len, TRNSCI_WIRE_STAGING_BYTES);
    return TRN_WIRE_INVALID_ARGUMENT;
}

trn_wire_code trn_validate_chunk(uint64_t len, const char *what, char *err, size_t errlen) {
    if (len <= TRNSCI_WIRE_CHUNK_BYTES)
        return TRN_WIRE_OK;
    snprintf(err, errlen, "%s: %llu bytes exceeds the chunk limit of %u bytes", what,
             (unsigned long long)len, TRNSCI_WIRE_CHUNK_BYTES);
    return TRN_WIRE_INVALID_ARGUMENT;
}
