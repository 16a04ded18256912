/*
 * neff_store.c — the NEFF compile cache on disk (neff_store.h).
 */
#define _GNU_SOURCE
#include "kernels/neuron/neff_store.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* FNV-1a, 128-bit: offset basis and prime from the FNV specification. */
typedef unsigned __int128 u128;
#define FNV128_PRIME (((u128)1 << 88) | 0x13b)
#define FNV128_OFFSET (((u128)0x6c62272e07bb0142ull << 64) | 0x62b821756295c58dull)

static u128 fnv_bytes(u128 h, const void *p, size_t n) {
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) {
        h ^= b[i];
        h *= FNV128_PRIME;
    }
    return h;
}

/* A field and its terminator, so that ("ab","c") and ("a","bc") differ. */
static u128 fnv_field(u128 h, const char *s) {
    h = fnv_bytes(h, s ? s : "", s ? strlen(s) : 0);
    return fnv_bytes(h, "\n", 1);
}

void trn_neff_address(const trn_neff_source *src, char out[TRN_NEFF_ADDRESS_LEN]) {
    u128 h = fnv_field(FNV128_OFFSET, "trnsci-neff 1");
    h = fnv_field(h, src->kernel);
    h = fnv_field(h, src->params);
    h = fnv_field(h, src->compiler_version);
    h = fnv_field(h, src->target);
    h = fnv_bytes(h, src->text, src->text_len);
    snprintf(out, TRN_NEFF_ADDRESS_LEN, "%016llx%016llx", (unsigned long long)(h >> 64),
             (unsigned long long)h);
}

/* Reads the whole regular file name under dirfd, at most max bytes (plus a
 * NUL after them). Returns 0, 1 when it does not exist, -1 with msg. */
static int read_file(int dirfd, const char *name, size_t max, void **bytes, size_t *size, char *msg,
                     size_t msglen) {
    const int fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        if (errno == ENOENT)
            return 1;
        snprintf(msg, msglen, "cannot open %s in the NEFF cache: %s", name, strerror(errno));
        return -1;
    }
    struct stat st;
    char *buf = NULL;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || (uint64_t)st.st_size > max) {
        snprintf(msg, msglen, "%s in the NEFF cache is not a file of at most %zu bytes", name, max);
        goto fail;
    }
    buf = malloc((size_t)st.st_size + 1);
    if (!buf) {
        snprintf(msg, msglen, "out of memory reading %s", name);
        goto fail;
    }
    size_t got = 0;
    while (got < (size_t)st.st_size) {
        const ssize_t r = read(fd, buf + got, (size_t)st.st_size - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0) {
            snprintf(msg, msglen, "cannot read %s in the NEFF cache: %s", name,
                     r < 0 ? strerror(errno) : "it shrank");
            goto fail;
        }
        got += (size_t)r;
    }
    buf[got] = '\0';
    close(fd);
    *bytes = buf;
    *size = got;
    return 0;
fail:
    free(buf);
    close(fd);
    return -1;
}

trn_neff_lookup trn_neff_store_get(int dirfd, const char *address, void **bytes, size_t *size,
                                   char *msg, size_t msglen) {
    char name[64];
    snprintf(name, sizeof(name), "%s.neff", address);
    int r = read_file(dirfd, name, TRN_NEFF_MAX_BYTES, bytes, size, msg, msglen);
    if (r <= 0)
        return r == 0 ? TRN_NEFF_PRESENT : TRN_NEFF_ERROR;
    snprintf(name, sizeof(name), "%s.fail", address);
    void *why = NULL;
    size_t n = 0;
    r = read_file(dirfd, name, 4096, &why, &n, msg, msglen);
    if (r != 0)
        return r == 1 ? TRN_NEFF_ABSENT : TRN_NEFF_ERROR;
    snprintf(msg, msglen, "%s", (const char *)why);
    free(why);
    return TRN_NEFF_FAILED;
}

int trn_neff_store_put(int dirfd, const char *tmp_name, const char *address, char *msg,
                       size_t msglen) {
    char name[64];
    snprintf(name, sizeof(name), "%s.neff", address);
    if (fchmodat(dirfd, tmp_name, 0644, 0) != 0 || renameat(dirfd, tmp_name, dirfd, name) != 0) {
        snprintf(msg, msglen, "cannot store %s in the NEFF cache: %s", name, strerror(errno));
        (void)unlinkat(dirfd, tmp_name, 0);
        return -1;
    }
    return 0;
}

int trn_neff_store_fail(int dirfd, const char *address, const char *why) {
    char name[64], tmp[80];
    snprintf(name, sizeof(name), "%s.fail", address);
    snprintf(tmp, sizeof(tmp), "%s.fail.%ld", address, (long)getpid());
    const int fd = openat(dirfd, tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0)
        return -1;
    const size_t n = strlen(why);
    const int ok = write(fd, why, n) == (ssize_t)n;
    close(fd);
    if (!ok || renameat(dirfd, tmp, dirfd, name) != 0) {
        (void)unlinkat(dirfd, tmp, 0);
        return -1;
    }
    return 0;
}
