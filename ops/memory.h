/*
 * memory.h — the descriptors of memset and device-to-device copies.
 */
#ifndef TRN_OPS_MEMORY_H
#define TRN_OPS_MEMORY_H

#include "ops/types.h"

typedef struct trn_memset_desc {
    void *dst;
    int value;
    size_t bytes;
} trn_memset_desc;

typedef struct trn_copy_desc {
    void *dst;
    const void *src;
    size_t bytes;
} trn_copy_desc;

/* This family's op kinds: its rows of the list of kinds (ops/op_kinds.h
 * says what each column is). */
#define TRN_MEMORY_KINDS(X)                                                                        \
    X(MEMSET, 1, MEMSET, memset, memset, "memset", "memset", "memory", COPY)                       \
    X(COPY, 2, COPY, copy, copy, "copy", "copy", "memory", COPY)

/* Its descriptors' places in trn_op_desc.u (ops/op.h): X(type, field). */
#define TRN_MEMORY_DESCS(X)                                                                        \
    X(trn_memset_desc, memset)                                                                     \
    X(trn_copy_desc, copy)

#endif
