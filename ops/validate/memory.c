/*
 * memory.c — argument rules of the memory ops (memset, copy): a byte value,
 * a size that fits the machine, and regions inside the caller's buffers.
 */
#include <stdint.h>

#include "ops/validate/validate.h"

static trn_wire_code validate_memset(trn_vctx *vx, const Trnsci__V1__MemsetOp *m,
                                     trn_memset_desc *out) {
    if (m->value > 255) {
        trn_vmsg(vx, "memset: value %u is not a byte", m->value);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    if (m->bytes > SIZE_MAX) {
        trn_vmsg(vx, "memset: %llu bytes is too large", (unsigned long long)m->bytes);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    out->value = (int)m->value;
    out->bytes = (size_t)m->bytes;
    return trn_vregion(vx, m->dst, m->bytes, 1, "memset: dst", &out->dst);
}

static trn_wire_code validate_copy(trn_vctx *vx, const Trnsci__V1__CopyOp *c, trn_copy_desc *out) {
    if (c->bytes > SIZE_MAX) {
        trn_vmsg(vx, "copy: %llu bytes is too large", (unsigned long long)c->bytes);
        return TRN_WIRE_INVALID_ARGUMENT;
    }
    out->bytes = (size_t)c->bytes;
    void *src = NULL;
    trn_wire_code rc = trn_vregion(vx, c->dst, c->bytes, 1, "copy: dst", &out->dst);
    if (rc == TRN_WIRE_OK)
        rc = trn_vregion(vx, c->src, c->bytes, 1, "copy: src", &src);
    out->src = src;
    return rc;
}

/* The table's entries (validate.h). */
TRN_VALIDATE_ENTRY(memset, validate_memset(vx, op->memset, &out->u.memset))
TRN_VALIDATE_ENTRY(copy, validate_copy(vx, op->copy, &out->u.copy))
