/*
 * status_scope.c — which sessions a Status caller may see (status_scope.h).
 */
#include "daemon/status_scope.h"

trn_scope trn_status_scope(const trn_peer *caller, trn_transport_kind transport,
                           int tokens_required, uint32_t daemon_uid) {
    if (transport == TRN_TRANSPORT_LOCAL) {
        /* The kernel vouches for the uid; root and the daemon's own user
         * administer the daemon, so they see everything. */
        if (!caller->known)
            return (trn_scope){.kind = TRN_SCOPE_NONE};
        if (caller->uid == 0 || caller->uid == daemon_uid)
            return (trn_scope){.kind = TRN_SCOPE_ALL};
        return (trn_scope){.kind = TRN_SCOPE_UID, .uid = caller->uid};
    }
    if (caller->token)
        return (trn_scope){.kind = TRN_SCOPE_TOKEN, .token = caller->token};
    /* gRPC without tokens: loopback only, or --insecure-remote; whoever can
     * connect can use any session whose id it knows, as before. */
    return (trn_scope){.kind = tokens_required ? TRN_SCOPE_NONE : TRN_SCOPE_ALL};
}

int trn_scope_includes(const trn_scope *sc, const trn_peer *owner) {
    switch (sc->kind) {
    case TRN_SCOPE_ALL: return 1;
    case TRN_SCOPE_TOKEN: return owner->token == sc->token;
    case TRN_SCOPE_UID: return owner->known && owner->uid == sc->uid;
    case TRN_SCOPE_NONE: break;
    }
    return 0;
}
