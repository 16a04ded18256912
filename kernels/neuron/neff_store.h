/*
 * neff_store.h — the NEFF compile cache on disk: compiled kernel programs,
 * content-addressed, and the compile failures, remembered.
 *
 * A NEFF's address is a 128-bit FNV-1a hash of everything that decides its
 * bytes: the kernel program's source text, kernel name and parameters, the
 * compiler's version and the target generation. It lives in
 * <dir>/<address>.neff; a failed compile leaves <address>.fail with the
 * compiler's message instead, so the same program is not compiled again
 * until the source, the compiler or the target changes (and so the
 * address). Files are written to a temporary name and renamed, so a reader
 * sees a whole NEFF or none; NEFFs are world-readable (executors running as
 * another user read them through a directory descriptor they opened
 * before dropping privileges).
 */
#ifndef TRN_KERNELS_NEURON_NEFF_STORE_H
#define TRN_KERNELS_NEURON_NEFF_STORE_H

#include <stddef.h>
#include <stdint.h>

/* A NEFF's address, as 32 hex digits and a NUL. */
#define TRN_NEFF_ADDRESS_LEN 33

/* What a NEFF is made from. */
typedef struct trn_neff_source {
    const void *text; /* the kernel program's source file */
    size_t text_len;
    const char *kernel, *params, *compiler_version, *target;
} trn_neff_source;

/* The address of what src describes. */
void trn_neff_address(const trn_neff_source *src, char out[TRN_NEFF_ADDRESS_LEN]);

/* What the store holds for an address. */
typedef enum trn_neff_lookup {
    TRN_NEFF_ABSENT = 0,
    TRN_NEFF_PRESENT = 1, /* *bytes (malloc'd) and *size are the NEFF */
    TRN_NEFF_FAILED = 2,  /* its compile failed: the message is in msg */
    TRN_NEFF_ERROR = -1,  /* the store could not be read: msg says why */
} trn_neff_lookup;

/* Looks address up in the store whose directory descriptor is dirfd. */
trn_neff_lookup trn_neff_store_get(int dirfd, const char *address, void **bytes, size_t *size,
                                   char *msg, size_t msglen);

/* Moves the compiled file tmp_name (in the store's directory) to address.
 * Returns 0, or -1 with msg. */
int trn_neff_store_put(int dirfd, const char *tmp_name, const char *address, char *msg,
                       size_t msglen);

/* Remembers that address failed to compile, with why. Returns 0 or -1. */
int trn_neff_store_fail(int dirfd, const char *address, const char *why);

/* Largest NEFF the store reads (a kernel program's NEFF is kilobytes to a
 * few megabytes; anything larger is not one of ours). */
#define TRN_NEFF_MAX_BYTES ((size_t)1 << 30)

#endif
