/*
 * stream.c — streams and synchronisation. Stream ids are chosen by the client
 * (the daemon creates a stream on first use), so creating one costs no round
 * trip.
 */
#include <stdlib.h>

#include "client/client.h"

uint32_t trn_stream_id(trnsciStream_t s) {
    return s ? s->id : 0;
}

trnsciError_t trnsciStreamCreate(trnsciStream_t *pStream) {
    if (!pStream)
        return trn_fail(trnsciErrorInvalidValue, "trnsciStreamCreate: pStream is NULL");
    trnsciError_t e;
    trn_client *c = trn_client_get(&e);
    if (!c)
        return e;
    trnsciStream_t s = malloc(sizeof(*s));
    if (!s)
        return trn_fail(trnsciErrorMemoryAllocation, "trnsciStreamCreate: out of memory");
    s->id = atomic_fetch_add(&c->next_stream_id, 1);
    *pStream = s;
    return trn_ok();
}

static trnsciError_t sync_stream(trnsciStream_t stream, int destroy) {
    trnsciError_t e;
    trn_client *c = trn_client_get(&e);
    if (!c)
        return e;
    Trnsci__V1__SynchronizeRequest req = TRNSCI__V1__SYNCHRONIZE_REQUEST__INIT;
    req.session_id = c->session_id;
    req.stream_id = trn_stream_id(stream);
    req.destroy_stream = destroy;
    e = trn_client_call(c, TRN_WIRE_SYNCHRONIZE, &req.base, NULL, NULL, TRN_NO_TIMEOUT);
    return e == trnsciSuccess ? trn_ok() : e;
}

trnsciError_t trnsciStreamDestroy(trnsciStream_t stream) {
    if (!stream)
        return trn_fail(trnsciErrorInvalidResourceHandle,
                        "trnsciStreamDestroy: the default stream cannot be destroyed");
    const trnsciError_t e = sync_stream(stream, 1);
    free(stream);
    return e;
}

trnsciError_t trnsciStreamSynchronize(trnsciStream_t stream) {
    return sync_stream(stream, 0);
}

trnsciError_t trnsciDeviceSynchronize(void) {
    trnsciError_t e;
    trn_client *c = trn_client_get(&e);
    if (!c)
        return e;
    e = trn_client_sync_all(c);
    return e == trnsciSuccess ? trn_ok() : e;
}
