/*
 * status_scope.h — which sessions a Status caller may see listed, which
 * plans a Plans caller may see, and who administers the daemon
 * (docs/security.md, "What Status shows" and "The shared plan cache").
 */
#ifndef TRN_DAEMON_STATUS_SCOPE_H
#define TRN_DAEMON_STATUS_SCOPE_H

#include <stdint.h>

#include "daemon/call.h"
#include "daemon/token.h"

typedef enum trn_scope_kind {
    TRN_SCOPE_ALL,   /* every session */
    TRN_SCOPE_TOKEN, /* the sessions opened with one token */
    TRN_SCOPE_UID,   /* the sessions of one kernel-checked uid */
    TRN_SCOPE_NONE,  /* no session */
} trn_scope_kind;

typedef struct trn_scope {
    trn_scope_kind kind;
    const trn_token *token; /* TRN_SCOPE_TOKEN */
    uint32_t uid;           /* TRN_SCOPE_UID */
} trn_scope;

/* Whether the caller administers the daemon: a kernel-checked uid (local
 * or grpc+unix) that is root or daemon_uid, or a token with scope=admin.
 * Administrators may clear and warm the plan cache and see everything. */
int trn_caller_is_admin(const trn_peer *caller, uint32_t daemon_uid);

/* The sessions a Status caller may see listed (docs/security.md, "What
 * Status shows"): an administrator, every session; a call with a token,
 * that token's; a caller of known uid (local, grpc+unix), its own uid's; a
 * gRPC call over TCP on a daemon without tokens (tokens_required 0), every
 * session. */
trn_scope trn_status_scope(const trn_peer *caller, trn_transport_kind transport,
                           int tokens_required, uint32_t daemon_uid);
/* Whether the scope includes a session opened by `owner`. */
int trn_scope_includes(const trn_scope *sc, const trn_peer *owner);

#endif
