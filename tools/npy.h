/*
 * npy.h — a small, defensive reader and writer of numpy's .npy files (format
 * versions 1.0, 2.0 and 3.0), for float64 ('<f8') and float32 ('<f4')
 * arrays in C or Fortran order. Used by examples/df_mp2 for its inputs; not
 * part of libtrnsci.
 *
 * Safety: the header is parsed from a bounded buffer (at most
 * NPY_MAX_HEADER bytes, never past its stated length), every number is
 * range-checked, the element count and byte size are overflow-checked, and
 * the data must be exactly count * element size bytes. A malformed file
 * gives -1 and a message naming the rule; nothing is read out of bounds.
 * Only little-endian hosts are supported (the reader refuses to build
 * elsewhere).
 */
#ifndef TRN_TOOLS_NPY_H
#define TRN_TOOLS_NPY_H

#include <stddef.h>
#include <stdint.h>

#define NPY_MAX_DIMS 8
#define NPY_MAX_HEADER (1u << 20) /* header bytes accepted for 2.0 / 3.0 */

typedef struct npy_array {
    int ndim;                     /* 0 .. NPY_MAX_DIMS (0: a scalar) */
    uint64_t shape[NPY_MAX_DIMS]; /* extents, in the array's logical order */
    int fortran_order;            /* 1: the first index varies fastest */
    int elem_size;                /* 4 ('<f4') or 8 ('<f8') */
    uint64_t count;               /* product of the extents */
    void *data;                   /* count * elem_size bytes (malloc'd; NULL when empty) */
} npy_array;

/* Parses the header at the start of buf (len bytes): fills everything but
 * data and sets *data_offset to where the data starts. 0, or -1 with err. */
int npy_parse_header(const void *buf, size_t len, npy_array *out, size_t *data_offset, char *err,
                     size_t errlen);
/* Parses a whole file image: header, and a copy of exactly the data it
 * announces (buf must hold no more and no less). 0, or -1 with err. */
int npy_parse(const void *buf, size_t len, npy_array *out, char *err, size_t errlen);
/* Reads path. 0, or -1 with err (which names the file). */
int npy_load(const char *path, npy_array *out, char *err, size_t errlen);
void npy_free(npy_array *a);

/* The element offset of the logical index idx[0 .. ndim-1] (each < its
 * extent: the caller's loop bounds), honouring the order. */
uint64_t npy_offset(const npy_array *a, const uint64_t *idx);
/* Element k (an offset from npy_offset) as a double. */
static inline double npy_at(const npy_array *a, uint64_t k) {
    return a->elem_size == 8 ? ((const double *)a->data)[k] : (double)((const float *)a->data)[k];
}

/* Writes a version 1.0 file of float64 (elem_size 8) or float32 (4) data,
 * count = product of shape, in the given order. 0, or -1 with err. */
int npy_save(const char *path, const void *data, int elem_size, int ndim, const uint64_t *shape,
             int fortran_order, char *err, size_t errlen);

#endif
