/*
 * client.h — libtrnsci's internal state and helpers shared by the API files.
 *
 * The process has one connection to one daemon and one session on it (the
 * CUDA runtime's "primary context"). It is created on first use and ended by
 * trnsciDeviceReset or process exit (the daemon notices the exit).
 */
#ifndef TRN_CLIENT_CLIENT_H
#define TRN_CLIENT_CLIENT_H

#include <stdatomic.h>
#include <stdint.h>

#include "client/ptrtable.h"
#include "client/transport.h"
#include "trnsci/trnsci.h"
#include "trnsci/v1/trnsci.pb-c.h"

#define TRN_CALL_TIMEOUT_MS 30000 /* calls that never wait for work */
#define TRN_NO_TIMEOUT (-1)

typedef struct trn_client {
    trn_transport *t;
    uint64_t session_id;
    unsigned core_count;
    uint64_t chunk_bytes;
    char daemon_version[32];
    char backend[16];
    /* Device memory is mapped into this process (local transport): device
     * pointers are host-addressable and copies are memcpy. */
    int mapped;
    trn_ptrtable ptrs;
    atomic_uint next_stream_id;
    /* Submissions so far, and how many of them a completed device-wide
     * synchronize is known to cover: trnsciMemcpy skips its implicit
     * synchronize when nothing is outstanding. */
    atomic_uint_fast64_t submitted, synced;
} trn_client;

struct trnsciStream_st {
    uint32_t id;
};

/* The connected client, initialising on first use; NULL with the error
 * recorded (trn_fail) when no daemon can be reached. */
trn_client *trn_client_get(trnsciError_t *err);

/* Records an error for trnsciGetLastError / trnsciGetLastErrorMessage and
 * returns it. */
trnsciError_t trn_fail(trnsciError_t e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Changes the code of the error just recorded, keeping its message. */
trnsciError_t trn_retag(trnsciError_t e);
/* Records success (clears the message) and returns trnsciSuccess. */
trnsciError_t trn_ok(void);

trnsciError_t trn_error_from_wire(trn_wire_code code);

/* A unary call on the session's transport; failures are recorded with the
 * daemon's message. */
trnsciError_t trn_client_call(trn_client *c, trn_wire_method m, const ProtobufCMessage *req,
                              const ProtobufCMessageDescriptor *reply_desc,
                              ProtobufCMessage **reply, int timeout_ms);

/* As trn_client_call, also receiving a descriptor sent with the reply (-1
 * when none). */
trnsciError_t trn_client_call_fd(trn_client *c, trn_wire_method m, const ProtobufCMessage *req,
                                 const ProtobufCMessageDescriptor *reply_desc,
                                 ProtobufCMessage **reply, int *fd, int timeout_ms);

/* Fills ref for device pointer p (NULL → buffer 0). `what` names the argument
 * in the error. Returns trnsciSuccess or trnsciErrorInvalidValue. */
trnsciError_t trn_client_resolve(trn_client *c, const void *p, const char *what,
                                 Trnsci__V1__BufferRef *ref);

/* Queues op on stream. */
trnsciError_t trn_client_submit(trn_client *c, trnsciStream_t stream, Trnsci__V1__Op *op);
/* Waits for every stream of this process. */
trnsciError_t trn_client_sync_all(trn_client *c);
/* Waits for outstanding work if any was submitted since the last full sync. */
trnsciError_t trn_client_order_after_work(trn_client *c);

uint32_t trn_stream_id(trnsciStream_t s);

#endif
