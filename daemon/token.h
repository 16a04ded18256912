/*
 * token.h — bearer tokens for remote (gRPC) clients: a token, its limits and
 * usage, and the parsed table of a tokens file.
 *
 * With --tokens-file, every gRPC call must carry `authorization: Bearer
 * <secret>` in its metadata, and the secret must be one of the file's. The
 * token a call authenticated with becomes part of its identity: a session
 * opened with one token cannot be named with another (the same error as a
 * session that does not exist), and the token's quotas (sessions, bytes,
 * queued ops) and priority ceiling apply beside the per-session and per-uid
 * ones. Local (unix socket) clients keep their kernel-checked uid instead.
 *
 * Invariants: a parsed table (trn_tokens) never changes; the daemon
 * publishes one at a time through daemon/token_store.h, and a SIGHUP may
 * publish a new one. A token is reference counted: its table, each session
 * opened with it and each gRPC call authenticated with it hold one, so a
 * token a reload removed stays valid for whoever still holds it (marked
 * revoked). Its limits may be replaced by a reload that keeps it (each field
 * atomically); its usage counters change `sessions` and `bytes` under the
 * session table's lock and `queued` atomically. Secrets are compared in time
 * independent of where they differ (trn_tokens_authenticate).
 *
 * File format, one token per line, `#` starts a comment:
 *   NAME SECRET [sessions=N] [bytes=SIZE] [queued-ops=N] [priority-ceiling=P]
 *               [scope=admin|user]
 * NAME: 1..63 of [A-Za-z0-9._-]; SECRET: 16..128 of the RFC 6750 token68
 * characters [A-Za-z0-9._~+/=-]; a limit left out (or 0) is unlimited beyond
 * the daemon-wide limits, which apply to each token as to one user
 * (max-sessions-per-uid, max-bytes-per-uid, max-queued-ops-per-uid).
 * scope=admin lets the token's holder administer the daemon as root and the
 * daemon's user may: clear and warm the shared plan cache, and see every
 * session in Status and every plan in Plans; scope=user (the default) does
 * not. The file must be a regular file with no group or other permission
 * bits (chmod 600), or the daemon refuses to start.
 */
#ifndef TRN_DAEMON_TOKEN_H
#define TRN_DAEMON_TOKEN_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "daemon/call.h"

#define TRN_TOKEN_NAME_MAX 64
#define TRN_TOKEN_SECRET_MIN 16
#define TRN_TOKEN_SECRET_MAX 128

/* A token's limits (0: no token limit) and scope as the file gives them. */
typedef struct trn_token_limits {
    uint32_t sessions;
    uint64_t bytes;
    uint32_t queued_ops;
    int priority_ceiling; /* most urgent priority this token's sessions get */
    int admin;            /* scope=admin */
} trn_token_limits;

typedef struct trn_token {
    char name[TRN_TOKEN_NAME_MAX];
    unsigned char secret[TRN_TOKEN_SECRET_MAX]; /* zero padded */
    size_t secret_len;
    /* Limits, read without a lock by the call path; a reload that keeps the
     * token stores new ones. */
    _Atomic uint32_t max_sessions;
    _Atomic uint64_t max_bytes;
    _Atomic uint32_t max_queued_ops;
    _Atomic int priority_ceiling;
    _Atomic int admin; /* scope=admin (a reload may change it) */
    /* Usage: sessions and bytes under the session table's lock. */
    uint32_t sessions;
    uint64_t bytes;
    atomic_uint queued;
    atomic_uint refs;   /* its table's, its sessions', its calls' */
    atomic_int revoked; /* a reload removed it: it opens nothing more */
} trn_token;

typedef struct trn_tokens {
    trn_token **v; /* each holds a reference for the table */
    size_t n;
} trn_tokens;

/* Parses a tokens file's text (len bytes, need not be NUL-terminated) into t
 * (which must be zeroed). source names the text in messages (the file's
 * path). Returns 0, or -1 with err as "SOURCE:LINE: rule" (or "SOURCE:
 * why"); t is then empty. */
int trn_tokens_parse(trn_tokens *t, const char *text, size_t len, const char *source, char *err,
                     size_t errlen);
/* Checks the file's type, owner and permissions, reads and parses it. */
int trn_tokens_load(trn_tokens *t, const char *path, char *err, size_t errlen);
/* Drops the table's reference to each token and empties t. */
void trn_tokens_free(trn_tokens *t);

/* The token an `authorization` metadata value (len bytes) names, or NULL,
 * borrowed from t. The scheme is "Bearer" (any case) followed by one space.
 * Every configured secret is compared in full, so the time taken does not
 * depend on where a guess differs from a secret. */
trn_token *trn_tokens_authenticate(const trn_tokens *t, const char *value, size_t len);

void trn_token_ref(trn_token *tk);
/* The last reference wipes the secret and frees the token. */
void trn_token_unref(trn_token *tk);
trn_token_limits trn_token_get_limits(const trn_token *tk);

#endif
