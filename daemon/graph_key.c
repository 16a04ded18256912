/*
 * graph_key.c — an op's structure hash (graph_key.h), by walking its message
 * with protobuf-c's descriptors, so that every op kind, present and future,
 * is covered without a list of fields to keep in step.
 */
#include "daemon/graph_key.h"

#include <string.h>

uint64_t trn_graph_hash_bytes(uint64_t h, const void *p, size_t len) {
    const unsigned char *b = p;
    for (size_t i = 0; i < len; i++) {
        h ^= b[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

static uint64_t hash_u64(uint64_t h, uint64_t v) {
    return trn_graph_hash_bytes(h, &v, sizeof(v));
}

/* Operands and scalars: not structure. */
static int skipped(const ProtobufCMessageDescriptor *owner, const ProtobufCFieldDescriptor *f) {
    if (f->type == PROTOBUF_C_TYPE_FLOAT || f->type == PROTOBUF_C_TYPE_DOUBLE)
        return 1;
    if (f->type == PROTOBUF_C_TYPE_MESSAGE &&
        (f->descriptor == &trnsci__v1__buffer_ref__descriptor ||
         f->descriptor == &trnsci__v1__scalar__descriptor))
        return 1;
    if (strcmp(f->name, "plan_id") == 0)
        return 1;
    return owner == &trnsci__v1__memset_op__descriptor && strcmp(f->name, "value") == 0;
}

static size_t scalar_size(ProtobufCType t) {
    switch (t) {
    case PROTOBUF_C_TYPE_INT32:
    case PROTOBUF_C_TYPE_SINT32:
    case PROTOBUF_C_TYPE_SFIXED32:
    case PROTOBUF_C_TYPE_UINT32:
    case PROTOBUF_C_TYPE_FIXED32:
    case PROTOBUF_C_TYPE_ENUM: return 4;
    case PROTOBUF_C_TYPE_INT64:
    case PROTOBUF_C_TYPE_SINT64:
    case PROTOBUF_C_TYPE_SFIXED64:
    case PROTOBUF_C_TYPE_UINT64:
    case PROTOBUF_C_TYPE_FIXED64: return 8;
    case PROTOBUF_C_TYPE_BOOL: return sizeof(protobuf_c_boolean);
    case PROTOBUF_C_TYPE_STRING: return sizeof(char *);
    case PROTOBUF_C_TYPE_BYTES: return sizeof(ProtobufCBinaryData);
    case PROTOBUF_C_TYPE_MESSAGE: return sizeof(ProtobufCMessage *);
    default: return 0;
    }
}

static uint64_t hash_message(uint64_t h, const ProtobufCMessage *m);

static uint64_t hash_value(uint64_t h, const ProtobufCFieldDescriptor *f, const void *v) {
    switch (f->type) {
    case PROTOBUF_C_TYPE_STRING: {
        const char *s = *(char *const *)v;
        return s ? trn_graph_hash_bytes(h, s, strlen(s) + 1) : hash_u64(h, 0);
    }
    case PROTOBUF_C_TYPE_BYTES: {
        const ProtobufCBinaryData *b = v;
        return trn_graph_hash_bytes(hash_u64(h, b->len), b->data, b->len);
    }
    case PROTOBUF_C_TYPE_MESSAGE: return hash_message(h, *(ProtobufCMessage *const *)v);
    default: return trn_graph_hash_bytes(h, v, scalar_size(f->type));
    }
}

static uint64_t hash_message(uint64_t h, const ProtobufCMessage *m) {
    if (!m)
        return hash_u64(h, 0);
    const ProtobufCMessageDescriptor *d = m->descriptor;
    const char *base = (const char *)m;
    h = trn_graph_hash_bytes(h, d->name, strlen(d->name));
    for (unsigned i = 0; i < d->n_fields; i++) {
        const ProtobufCFieldDescriptor *f = &d->fields[i];
        if (skipped(d, f))
            continue;
        if (f->flags & PROTOBUF_C_FIELD_FLAG_ONEOF) {
            const uint32_t which = *(const uint32_t *)(base + f->quantifier_offset);
            if (which != f->id)
                continue;
        }
        h = hash_u64(h, f->id);
        if (f->label == PROTOBUF_C_LABEL_REPEATED) {
            const size_t n = *(const size_t *)(base + f->quantifier_offset);
            const char *arr = *(char *const *)(base + f->offset);
            h = hash_u64(h, n);
            for (size_t k = 0; k < n; k++)
                h = hash_value(h, f, arr + k * scalar_size(f->type));
        } else {
            h = hash_value(h, f, base + f->offset);
        }
    }
    return h;
}

uint64_t trn_graph_hash_op(uint64_t h, const Trnsci__V1__Op *op) {
    return hash_message(h, &op->base);
}
