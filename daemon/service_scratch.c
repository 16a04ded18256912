/*
 * service_scratch.c — scratch an op owns between its steps or stages (a
 * conversion stage's pieces, an in-place FFT's intermediate array, a
 * parallel CG's vectors, a tiled syevd's workspace): a block of the
 * service's pool (daemon/op_scratch.h: in the executors' shared space,
 * capped, reused), charged to the op's session like a buffer so that a
 * session's quota bounds what its queued ops hold.
 */
#include <stdio.h>

#include "daemon/op_scratch.h"
#include "daemon/service_internal.h"
#include "daemon/session.h"

trn_wire_code trn_service_scratch_take(trn_service *svc, trn_session *s, uint64_t bytes,
                                       const char *what, trn_scratch_lease *l, char *err,
                                       size_t errlen) {
    *l = (trn_scratch_lease){0};
    if (!svc->scratch || bytes == 0 || bytes > SIZE_MAX) {
        snprintf(err, errlen, "no scratch memory for %s", what);
        return TRN_WIRE_RESOURCE_EXHAUSTED;
    }
    const trn_wire_code rc = trn_session_charge(s, bytes, what, err, errlen);
    if (rc != TRN_WIRE_OK)
        return rc;
    size_t len;
    void *p = trn_op_scratch_get(svc->scratch, (size_t)bytes, &len);
    if (!p) {
        trn_session_credit(s, bytes);
        snprintf(err, errlen, "out of scratch memory for %s (%llu bytes)", what,
                 (unsigned long long)bytes);
        return TRN_WIRE_RESOURCE_EXHAUSTED;
    }
    *l = (trn_scratch_lease){
        .p = p, .len = len, .charged = bytes, .pool = svc->scratch, .session = s};
    return TRN_WIRE_OK;
}

void trn_service_scratch_give(trn_scratch_lease *l) {
    if (!l->p)
        return;
    trn_op_scratch_put(l->pool, l->p, l->len);
    trn_session_credit(l->session, l->charged);
    *l = (trn_scratch_lease){0};
}
