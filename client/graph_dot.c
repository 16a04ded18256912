/*
 * graph_dot.c — trnsciGraphDebugDotPrint: a graph as Graphviz DOT.
 *
 * A kernel node's label is its family and routine, then its op message's
 * shape arguments: every non-zero integer, enum and boolean field (nested
 * messages included), not operands (BufferRef) or scalars. Walking the
 * message's protobuf-c descriptor covers every routine without a table.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "client/graph.h"
#include "ops/op.h"

#define LABEL_MAX 400

typedef struct label {
    char text[LABEL_MAX];
    size_t len;
} label;

static void put(label *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(label *l, const char *fmt, ...) {
    if (l->len >= sizeof(l->text) - 1)
        return;
    va_list ap;
    va_start(ap, fmt);
    const int n = vsnprintf(l->text + l->len, sizeof(l->text) - l->len, fmt, ap);
    va_end(ap);
    if (n > 0)
        l->len = l->len + (size_t)n < sizeof(l->text) ? l->len + (size_t)n : sizeof(l->text) - 1;
}

static long long int_value(const ProtobufCFieldDescriptor *f, const void *v) {
    switch (f->type) {
    case PROTOBUF_C_TYPE_INT32:
    case PROTOBUF_C_TYPE_SINT32:
    case PROTOBUF_C_TYPE_SFIXED32:
    case PROTOBUF_C_TYPE_ENUM: return *(const int32_t *)v;
    case PROTOBUF_C_TYPE_UINT32:
    case PROTOBUF_C_TYPE_FIXED32: return *(const uint32_t *)v;
    case PROTOBUF_C_TYPE_INT64:
    case PROTOBUF_C_TYPE_SINT64:
    case PROTOBUF_C_TYPE_SFIXED64: return (long long)*(const int64_t *)v;
    case PROTOBUF_C_TYPE_UINT64:
    case PROTOBUF_C_TYPE_FIXED64: return (long long)*(const uint64_t *)v;
    case PROTOBUF_C_TYPE_BOOL: return *(const protobuf_c_boolean *)v;
    default: return 0;
    }
}

static void describe(label *l, const ProtobufCMessage *m, const char *prefix) {
    if (!m)
        return;
    const ProtobufCMessageDescriptor *d = m->descriptor;
    const char *base = (const char *)m;
    for (unsigned i = 0; i < d->n_fields; i++) {
        const ProtobufCFieldDescriptor *f = &d->fields[i];
        if (f->label == PROTOBUF_C_LABEL_REPEATED)
            continue;
        if ((f->flags & PROTOBUF_C_FIELD_FLAG_ONEOF) &&
            *(const uint32_t *)(base + f->quantifier_offset) != f->id)
            continue;
        const void *v = base + f->offset;
        if (f->type == PROTOBUF_C_TYPE_MESSAGE) {
            if (f->descriptor == &trnsci__v1__buffer_ref__descriptor ||
                f->descriptor == &trnsci__v1__scalar__descriptor)
                continue;
            describe(l, *(ProtobufCMessage *const *)v, f->name);
            continue;
        }
        if (f->type == PROTOBUF_C_TYPE_ENUM) {
            const ProtobufCEnumValue *ev =
                protobuf_c_enum_descriptor_get_value(f->descriptor, *(const int32_t *)v);
            if (ev && ev->value != 0)
                put(l, " %s%s%s=%s", prefix ? prefix : "", prefix ? "." : "", f->name, ev->name);
            continue;
        }
        const long long x = int_value(f, v);
        if (x != 0 && strcmp(f->name, "plan_id") != 0)
            put(l, " %s%s%s=%lld", prefix ? prefix : "", prefix ? "." : "", f->name, x);
    }
}

static void node_label(const trnsciGraphNode_t n, label *l) {
    switch (n->type) {
    case trnsciGraphNodeTypeEmpty: put(l, "empty"); return;
    case trnsciGraphNodeTypeEventRecord: put(l, "event record (event %u)", n->event_id); return;
    case trnsciGraphNodeTypeWaitEvent: put(l, "event wait (event %u)", n->event_id); return;
    default: break;
    }
    const trn_op_info *k = trn_op_info_of((int)n->op->kind_case);
    put(l, "%s %s\\n", k ? k->family : "memory", k ? k->title : "op");
    /* The op's own message: the oneof member set. */
    const ProtobufCMessageDescriptor *d = n->op->base.descriptor;
    for (unsigned i = 0; i < d->n_fields; i++)
        if (d->fields[i].id == (uint32_t)n->op->kind_case)
            describe(l, *(ProtobufCMessage *const *)((const char *)n->op + d->fields[i].offset),
                     NULL);
}

static void print_graph(FILE *f, trnsciGraph_t g, const char *prefix, int depth) {
    for (size_t i = 0; i < g->n; i++) {
        const trnsciGraphNode_t n = g->nodes[i];
        if (n->type == trnsciGraphNodeTypeGraph) {
            char sub[160];
            snprintf(sub, sizeof(sub), "%.100s%zu_", prefix, i);
            fprintf(f, "%*ssubgraph cluster_%s {\n%*slabel=\"child graph %s%zu\";\n", 2 * depth, "",
                    sub, 2 * depth + 2, "", prefix, i);
            print_graph(f, n->child, sub, depth + 1);
            fprintf(f, "%*s}\n", 2 * depth, "");
            /* Edges to and from a cluster go through an invisible anchor. */
            fprintf(f, "%*s\"%s%zu\" [shape=point, label=\"\"];\n", 2 * depth, "", prefix, i);
        } else {
            label l = {0};
            node_label(n, &l);
            fprintf(f, "%*s\"%s%zu\" [shape=box, label=\"%s%zu: %s\"];\n", 2 * depth, "", prefix, i,
                    prefix, i, l.text);
        }
        for (size_t k = 0; k < n->ndeps; k++)
            fprintf(f, "%*s\"%s%u\" -> \"%s%zu\";\n", 2 * depth, "", prefix, n->deps[k], prefix, i);
    }
}

trnsciError_t trnsciGraphDebugDotPrint(trnsciGraph_t graph, const char *path, unsigned int flags) {
    (void)flags; /* every flag: the one level of detail there is */
    if (!graph || !path)
        return trn_fail(trnsciErrorInvalidValue, "trnsciGraphDebugDotPrint: graph or path is NULL");
    FILE *f = fopen(path, "w");
    if (!f)
        return trn_fail(trnsciErrorInvalidValue, "trnsciGraphDebugDotPrint: cannot write %s", path);
    fprintf(f, "digraph trnsci_graph {\n  rankdir=TB;\n");
    print_graph(f, graph, "", 1);
    fprintf(f, "}\n");
    const int bad = ferror(f);
    if (fclose(f) != 0 || bad)
        return trn_fail(trnsciErrorInvalidValue, "trnsciGraphDebugDotPrint: writing %s failed",
                        path);
    return trn_ok();
}
