/*
 * fuzz_npy.c — libFuzzer target: the .npy reader (tools/npy.c) that
 * examples/df_mp2 uses on files it is handed. Input: a file image.
 * Whatever it holds, parsing either fails with a message and nothing
 * allocated, or yields an array whose shape, count and byte size agree,
 * whose last element can be read, and whose every logical index maps
 * inside the data.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tools/npy.h"

/* Walks the corners of the index space (each index 0 or extent - 1) and
 * checks npy_offset stays inside the array. */
static void check_offsets(const npy_array *a) {
    if (a->count == 0)
        return;
    const unsigned corners = 1u << a->ndim;
    for (unsigned c = 0; c < corners; c++) {
        uint64_t idx[NPY_MAX_DIMS];
        for (int d = 0; d < a->ndim; d++)
            idx[d] = (c >> d) & 1u ? a->shape[d] - 1 : 0;
        if (npy_offset(a, idx) >= a->count)
            abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    npy_array a;
    char err[256];
    memset(&a, 0x5a, sizeof(a)); /* the reader must set what it reports */
    if (npy_parse(data, size, &a, err, sizeof(err)) != 0) {
        if (err[0] == '\0')
            abort(); /* a refusal always says why */
        return 0;
    }
    if (a.ndim < 0 || a.ndim > NPY_MAX_DIMS || (a.elem_size != 4 && a.elem_size != 8))
        abort();
    uint64_t count = 1;
    for (int d = 0; d < a.ndim; d++)
        count *= a.shape[d]; /* cannot overflow: the reader checked it */
    if (count != a.count || (count > 0 && !a.data))
        abort();
    if (count > 0) {
        volatile double last = npy_at(&a, count - 1); /* ASan: inside the copy */
        (void)last;
    }
    check_offsets(&a);
    npy_free(&a);
    return 0;
}
