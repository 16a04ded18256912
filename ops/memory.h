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

#endif
