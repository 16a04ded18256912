/*
 * checked.h — overflow-checked size arithmetic for request validation.
 *
 * Every size, offset and extent derived from a client's numbers is computed
 * with these; each returns 0 on success and -1 when the exact result does not
 * fit, leaving *out unspecified.
 */
#ifndef TRN_OPS_VALIDATE_CHECKED_H
#define TRN_OPS_VALIDATE_CHECKED_H

#include <stddef.h>
#include <stdint.h>

static inline int ck_add(uint64_t a, uint64_t b, uint64_t *out) {
    return __builtin_add_overflow(a, b, out) ? -1 : 0;
}

static inline int ck_mul(uint64_t a, uint64_t b, uint64_t *out) {
    return __builtin_mul_overflow(a, b, out) ? -1 : 0;
}

/* Bytes spanned by a column-major rows×cols matrix with leading dimension ld
 * and element size es: ((cols-1)*ld + rows)*es, or 0 when it is empty.
 * Requires ld >= rows (checked by the caller). */
static inline int ck_matrix_bytes(uint64_t rows, uint64_t cols, uint64_t ld, uint64_t es,
                                  uint64_t *out) {
    if (rows == 0 || cols == 0) {
        *out = 0;
        return 0;
    }
    uint64_t t;
    if (ck_mul(cols - 1, ld, &t) || ck_add(t, rows, &t) || ck_mul(t, es, &t))
        return -1;
    *out = t;
    return 0;
}

#endif
