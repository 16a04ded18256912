/*
 * rand_host.h — running a trnrand request in this process, into host memory
 * (host generators, client/rand_host.c).
 */
#ifndef TRN_CLIENT_RAND_HOST_H
#define TRN_CLIENT_RAND_HOST_H

#include <stddef.h>

#include "client/client.h"
#include "trnsci/v1/trnsci.pb-c.h"

/* The buffer id a host generator's request names as its destination. */
#define TRN_RAND_HOST_BUFFER 1u

/* Validates op (a RandGenerateOp whose dst is TRN_RAND_HOST_BUFFER) against
 * the `bytes` bytes at out, and computes it there. Returns trnsciSuccess,
 * or the error (recorded, with fn named) the daemon would have given. */
trnsciError_t trn_rand_host_generate(const Trnsci__V1__Op *op, void *out, size_t bytes,
                                     const char *fn);

#endif
