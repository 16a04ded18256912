/*
 * call.h — a request in flight, as the transport-neutral service sees it.
 *
 * Each frontend (gRPC today, the shared-memory ring later) wraps its own call
 * object in this interface, so the service's handlers exist once.
 */
#ifndef TRN_DAEMON_CALL_H
#define TRN_DAEMON_CALL_H

#include <stddef.h>
#include <stdint.h>

#include "trnsci_wire.h"

typedef struct trn_call trn_call;

struct trn_call {
    /* Completes the call, exactly once, from any thread. With TRN_WIRE_OK,
     * body/len is the packed reply (malloc'd; ownership passes to the
     * transport; NULL/0 for an empty reply). Otherwise msg says what was
     * wrong (body is NULL). */
    void (*finish)(trn_call *call, trn_wire_code code, const char *msg, uint8_t *body, size_t len);
};

#endif
