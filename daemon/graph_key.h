/*
 * graph_key.h — the structure of an op, as a hash: what a graph's key and
 * trnsciGraphExecUpdate's check are made of.
 *
 * An op's structure is its kind and every field of its message except its
 * operands and scalars: BufferRef fields (device addresses), Scalar and
 * floating-point fields (alpha, beta, tolerances), plan ids (a per-session
 * number: the plan's own key stands for it) and a memset's byte value.
 * Routines, shapes, leading dimensions, strides, types, compute types,
 * transposes and modes all count.
 */
#ifndef TRN_DAEMON_GRAPH_KEY_H
#define TRN_DAEMON_GRAPH_KEY_H

#include <stddef.h>
#include <stdint.h>

#include "trnsci/v1/trnsci.pb-c.h"

/* FNV-1a of len bytes, continuing from h (start: TRN_GRAPH_HASH_INIT). */
#define TRN_GRAPH_HASH_INIT 0xcbf29ce484222325ull
uint64_t trn_graph_hash_bytes(uint64_t h, const void *p, size_t len);

/* The structure of op, continuing from h. */
uint64_t trn_graph_hash_op(uint64_t h, const Trnsci__V1__Op *op);

#endif
