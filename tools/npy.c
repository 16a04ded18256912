/*
 * npy.c — numpy .npy files (tools/npy.h): a bounded parser of the header's
 * Python dict literal ({'descr': '<f8', 'fortran_order': False, 'shape':
 * (2, 3), }), overflow-checked sizes, and a version 1.0 writer.
 *
 * The parser is a cursor over [pos, end) that never reads at or past end;
 * every branch that would is an error. It accepts what numpy writes (keys in
 * any order, single or double quotes, a trailing comma, spaces and the
 * closing newline, Python 2's "3L" extents) and nothing else: unknown or
 * repeated keys, other types, byte orders or versions are refused by name.
 */
#include "tools/npy.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "npy.c reads '<f8' / '<f4' data in place: little-endian hosts only"
#endif

static const char magic[6] = {'\x93', 'N', 'U', 'M', 'P', 'Y'};

typedef struct cursor {
    const char *pos, *end;
    char *err;
    size_t errlen;
} cursor;

static int fail(cursor *c, const char *what) {
    snprintf(c->err, c->errlen, "npy: header: %s", what);
    return -1;
}

static void skip_ws(cursor *c) {
    while (c->pos < c->end && (*c->pos == ' ' || *c->pos == '\t' || *c->pos == '\n'))
        c->pos++;
}

static int expect(cursor *c, char ch, const char *what) {
    skip_ws(c);
    if (c->pos >= c->end || *c->pos != ch)
        return fail(c, what);
    c->pos++;
    return 0;
}

/* A quoted string without escapes, at most cap - 1 characters. */
static int parse_str(cursor *c, char *out, size_t cap) {
    skip_ws(c);
    if (c->pos >= c->end || (*c->pos != '\'' && *c->pos != '"'))
        return fail(c, "expected a quoted string");
    const char q = *c->pos++;
    size_t n = 0;
    while (c->pos < c->end && *c->pos != q) {
        if (*c->pos == '\\' || n + 1 >= cap)
            return fail(c, "string too long or with escapes");
        out[n++] = *c->pos++;
    }
    if (c->pos >= c->end)
        return fail(c, "unterminated string");
    c->pos++;
    out[n] = '\0';
    return 0;
}

static int parse_bool(cursor *c, int *out) {
    skip_ws(c);
    const size_t left = (size_t)(c->end - c->pos);
    if (left >= 4 && memcmp(c->pos, "True", 4) == 0) {
        c->pos += 4;
        *out = 1;
        return 0;
    }
    if (left >= 5 && memcmp(c->pos, "False", 5) == 0) {
        c->pos += 5;
        *out = 0;
        return 0;
    }
    return fail(c, "fortran_order must be True or False");
}

/* A non-negative extent, at most 2^62 (any real array is far smaller). */
static int parse_extent(cursor *c, uint64_t *out) {
    skip_ws(c);
    uint64_t v = 0;
    int digits = 0;
    while (c->pos < c->end && *c->pos >= '0' && *c->pos <= '9') {
        v = v * 10 + (uint64_t)(*c->pos - '0');
        if (++digits > 19 || v > (UINT64_C(1) << 62))
            return fail(c, "shape extent too large");
        c->pos++;
    }
    if (digits == 0)
        return fail(c, "shape extents must be non-negative integers");
    if (c->pos < c->end && *c->pos == 'L')
        c->pos++;
    *out = v;
    return 0;
}

static int parse_shape(cursor *c, npy_array *a) {
    if (expect(c, '(', "shape must be a tuple"))
        return -1;
    a->ndim = 0;
    for (;;) {
        skip_ws(c);
        if (c->pos < c->end && *c->pos == ')') {
            c->pos++;
            return 0;
        }
        if (a->ndim == NPY_MAX_DIMS)
            return fail(c, "more than 8 dimensions");
        if (parse_extent(c, &a->shape[a->ndim]))
            return -1;
        a->ndim++;
        skip_ws(c);
        if (c->pos < c->end && *c->pos == ',')
            c->pos++;
        else if (c->pos >= c->end || *c->pos != ')')
            return fail(c, "shape: expected ',' or ')'");
    }
}

static int parse_dict(cursor *c, npy_array *a) {
    int have_descr = 0, have_order = 0, have_shape = 0;
    if (expect(c, '{', "expected '{'"))
        return -1;
    for (;;) {
        skip_ws(c);
        if (c->pos < c->end && *c->pos == '}') {
            c->pos++;
            break;
        }
        char key[32], val[32];
        if (parse_str(c, key, sizeof(key)) || expect(c, ':', "expected ':' after a key"))
            return -1;
        if (strcmp(key, "descr") == 0) {
            if (have_descr++ || parse_str(c, val, sizeof(val)))
                return have_descr > 1 ? fail(c, "descr given twice") : -1;
            if (strcmp(val, "<f8") == 0)
                a->elem_size = 8;
            else if (strcmp(val, "<f4") == 0)
                a->elem_size = 4;
            else {
                snprintf(c->err, c->errlen,
                         "npy: header: descr '%s' is not supported (only '<f8' and '<f4')", val);
                return -1;
            }
        } else if (strcmp(key, "fortran_order") == 0) {
            if (have_order++ || parse_bool(c, &a->fortran_order))
                return have_order > 1 ? fail(c, "fortran_order given twice") : -1;
        } else if (strcmp(key, "shape") == 0) {
            if (have_shape++ || parse_shape(c, a))
                return have_shape > 1 ? fail(c, "shape given twice") : -1;
        } else {
            return fail(c, "unknown key (only descr, fortran_order, shape)");
        }
        skip_ws(c);
        if (c->pos < c->end && *c->pos == ',')
            c->pos++;
        else if (c->pos >= c->end || *c->pos != '}')
            return fail(c, "expected ',' or '}'");
    }
    skip_ws(c);
    if (c->pos != c->end)
        return fail(c, "trailing characters after the dict");
    if (!have_descr || !have_order || !have_shape)
        return fail(c, "descr, fortran_order and shape are all required");
    return 0;
}

int npy_parse_header(const void *buf, size_t len, npy_array *out, size_t *data_offset, char *err,
                     size_t errlen) {
    const unsigned char *p = buf;
    memset(out, 0, sizeof(*out));
    if (len < 10 || memcmp(p, magic, sizeof(magic)) != 0) {
        snprintf(err, errlen, "npy: not a .npy file (no \\x93NUMPY magic)");
        return -1;
    }
    const unsigned major = p[6], minor = p[7];
    size_t hlen, start;
    if (major == 1 && minor == 0) {
        hlen = (size_t)p[8] | (size_t)p[9] << 8;
        start = 10;
    } else if ((major == 2 || major == 3) && minor == 0) {
        if (len < 12) {
            snprintf(err, errlen, "npy: truncated header length");
            return -1;
        }
        const uint32_t h =
            (uint32_t)p[8] | (uint32_t)p[9] << 8 | (uint32_t)p[10] << 16 | (uint32_t)p[11] << 24;
        if (h > NPY_MAX_HEADER) {
            snprintf(err, errlen, "npy: header of %u bytes exceeds the %u-byte limit", h,
                     NPY_MAX_HEADER);
            return -1;
        }
        hlen = h;
        start = 12;
    } else {
        snprintf(err, errlen, "npy: format version %u.%u is not supported (1.0, 2.0, 3.0)", major,
                 minor);
        return -1;
    }
    if (hlen > len - start) {
        snprintf(err, errlen, "npy: header of %zu bytes runs past the end of the file", hlen);
        return -1;
    }
    cursor c = {(const char *)p + start, (const char *)p + start + hlen, err, errlen};
    if (parse_dict(&c, out) != 0)
        return -1;
    uint64_t count = 1;
    for (int i = 0; i < out->ndim; i++)
        if (__builtin_mul_overflow(count, out->shape[i], &count)) {
            snprintf(err, errlen, "npy: the element count overflows 64 bits");
            return -1;
        }
    uint64_t bytes;
    if (__builtin_mul_overflow(count, (uint64_t)out->elem_size, &bytes) || bytes > SIZE_MAX) {
        snprintf(err, errlen, "npy: %llu elements do not fit in memory", (unsigned long long)count);
        return -1;
    }
    out->count = count;
    *data_offset = start + hlen;
    return 0;
}

int npy_parse(const void *buf, size_t len, npy_array *out, char *err, size_t errlen) {
    size_t off;
    if (npy_parse_header(buf, len, out, &off, err, errlen) != 0)
        return -1;
    const size_t bytes = (size_t)out->count * (size_t)out->elem_size;
    if (len - off != bytes) {
        snprintf(err, errlen, "npy: %zu data bytes, but the header announces %zu", len - off,
                 bytes);
        return -1;
    }
    if (bytes) {
        out->data = malloc(bytes);
        if (!out->data) {
            snprintf(err, errlen, "npy: out of memory for %zu bytes", bytes);
            return -1;
        }
        memcpy(out->data, (const char *)buf + off, bytes);
    }
    return 0;
}

int npy_load(const char *path, npy_array *out, char *err, size_t errlen) {
    memset(out, 0, sizeof(*out));
    char why[256];
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return -1;
    }
    struct stat st;
    int rc = -1;
    char *head = NULL;
    if (fstat(fileno(f), &st) != 0 || st.st_size < 0) {
        snprintf(err, errlen, "%s: cannot stat", path);
        goto out;
    }
    const size_t size = (size_t)st.st_size;
    /* The prefix, then the header it announces (bounded), then the data. */
    const size_t want = size < 12 + NPY_MAX_HEADER ? size : 12 + NPY_MAX_HEADER;
    head = malloc(want ? want : 1);
    if (!head || fread(head, 1, want, f) != want) {
        snprintf(err, errlen, "%s: cannot read", path);
        goto out;
    }
    size_t off;
    if (npy_parse_header(head, want, out, &off, why, sizeof(why)) != 0) {
        snprintf(err, errlen, "%s: %s", path, why);
        goto out;
    }
    const size_t bytes = (size_t)out->count * (size_t)out->elem_size;
    if (size - off != bytes) {
        snprintf(err, errlen, "%s: npy: %zu data bytes, but the header announces %zu", path,
                 size - off, bytes);
        goto out;
    }
    if (bytes) {
        out->data = malloc(bytes);
        if (!out->data) {
            snprintf(err, errlen, "%s: out of memory for %zu bytes", path, bytes);
            goto out;
        }
        if (fseek(f, (long)off, SEEK_SET) != 0 || fread(out->data, 1, bytes, f) != bytes) {
            snprintf(err, errlen, "%s: cannot read the data", path);
            goto out;
        }
    }
    rc = 0;
out:
    if (rc != 0)
        npy_free(out);
    free(head);
    fclose(f);
    return rc;
}

void npy_free(npy_array *a) {
    free(a->data);
    a->data = NULL;
}

uint64_t npy_offset(const npy_array *a, const uint64_t *idx) {
    uint64_t off = 0, stride = 1;
    if (a->fortran_order) {
        for (int i = 0; i < a->ndim; i++) {
            off += idx[i] * stride;
            stride *= a->shape[i];
        }
    } else {
        for (int i = a->ndim - 1; i >= 0; i--) {
            off += idx[i] * stride;
            stride *= a->shape[i];
        }
    }
    return off;
}

int npy_save(const char *path, const void *data, int elem_size, int ndim, const uint64_t *shape,
             int fortran_order, char *err, size_t errlen) {
    if ((elem_size != 4 && elem_size != 8) || ndim < 0 || ndim > NPY_MAX_DIMS) {
        snprintf(err, errlen, "npy_save: element size 4 or 8 and 0..8 dimensions");
        return -1;
    }
    char dict[512], dims[400] = "";
    uint64_t count = 1;
    size_t n = 0;
    for (int i = 0; i < ndim; i++) {
        n += (size_t)snprintf(dims + n, sizeof(dims) - n, "%llu,%s", (unsigned long long)shape[i],
                              ndim > 1 && i < ndim - 1 ? " " : "");
        count *= shape[i];
    }
    if (ndim > 1) /* "(2, 3)", not "(2, 3,)" */
        dims[n - 1] = '\0';
    int len = snprintf(dict, sizeof(dict), "{'descr': '%s', 'fortran_order': %s, 'shape': (%s), }",
                       elem_size == 8 ? "<f8" : "<f4", fortran_order ? "True" : "False", dims);
    /* Pad with spaces so that the data starts at a multiple of 64. */
    size_t total = 10 + (size_t)len + 1;
    const size_t pad = (64 - total % 64) % 64;
    char header[640];
    memcpy(header, magic, 6);
    header[6] = 1;
    header[7] = 0;
    const size_t hlen = (size_t)len + pad + 1;
    header[8] = (char)(hlen & 0xff);
    header[9] = (char)(hlen >> 8);
    memcpy(header + 10, dict, (size_t)len);
    memset(header + 10 + len, ' ', pad);
    header[10 + hlen - 1] = '\n';
    FILE *f = fopen(path, "wb");
    if (!f) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return -1;
    }
    const size_t bytes = (size_t)count * (size_t)elem_size;
    const int ok = fwrite(header, 1, 10 + hlen, f) == 10 + hlen &&
                   (bytes == 0 || fwrite(data, 1, bytes, f) == bytes);
    if (fclose(f) != 0 || !ok) {
        snprintf(err, errlen, "%s: write failed", path);
        return -1;
    }
    return 0;
}
