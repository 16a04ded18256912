/*
 * status_scope.c — which sessions a Status or Plans caller may see, and who
 * administers the daemon (status_scope.h).
 */
#include "daemon/status_scope.h"

int trn_caller_is_admin(const trn_peer *caller, uint32_t daemon_uid) {
    /* The kernel vouches for a known uid (local and grpc+unix clients):
     * root and the daemon's own user run the daemon. A token is an
     * administrator only when its line in the tokens file says so. */
    if (caller->known && (caller->uid == 0 || caller->uid == daemon_uid))
        return 1;
    return caller->token && atomic_load(&caller->token->admin);
}

trn_scope trn_status_scope(const trn_peer *caller, trn_transport_kind transport,
                           int tokens_required, uint32_t daemon_uid) {
    if (trn_caller_is_admin(caller, daemon_uid))
        return (trn_scope){.kind = TRN_SCOPE_ALL};
    /* A call with a token belongs to the token, whoever the uid is. */
    if (caller->token)
        return (trn_scope){.kind = TRN_SCOPE_TOKEN, .token = caller->token};
    if (caller->known)
        return (trn_scope){.kind = TRN_SCOPE_UID, .uid = caller->uid};
    if (transport == TRN_TRANSPORT_LOCAL)
        return (trn_scope){.kind = TRN_SCOPE_NONE};
    /* gRPC over TCP without tokens: the operator allowed that
     * (--allow-unauthenticated-tcp); whoever can connect can use any
     * session whose id it knows, as before. */
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
