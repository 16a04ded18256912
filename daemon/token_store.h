/*
 * token_store.h — the bearer tokens gRPC calls are checked against, and
 * their reload on SIGHUP.
 *
 * One table (token.h) is published at a time. A call is checked against it
 * under the store's lock and gets the token it matched with a reference;
 * a reload swaps the table under the same lock, so a call sees the old
 * table or the new one whole, never a mix.
 *
 * A reload reads the file again with the start-up checks (owner, mode 600,
 * not a symlink, syntax); a file that fails them changes nothing. A token
 * is its name and secret together:
 *  - kept (same name, same secret): the same object goes on, so its
 *    sessions and usage counts carry over; its limits take the file's new
 *    values, which apply to requests from then on (work already accepted
 *    is not undone);
 *  - removed (gone from the file, or its name or secret changed, which is a
 *    removal plus an addition): marked revoked. It authenticates nothing
 *    more and opens no session; the caller closes its sessions
 *    (trn_session_table_close_revoked), as if their clients had gone;
 *  - added: a new token.
 * Each change is logged by token name; secrets never are.
 */
#ifndef TRN_DAEMON_TOKEN_STORE_H
#define TRN_DAEMON_TOKEN_STORE_H

#include <pthread.h>
#include <stddef.h>

#include "daemon/token.h"

typedef struct trn_token_store {
    pthread_mutex_t lock; /* guards cur against a concurrent swap */
    trn_tokens cur;       /* replaced only by the thread that reloads */
    char *path;           /* --tokens-file; NULL: gRPC calls are not checked */
} trn_token_store;

/* What a reload changed. */
typedef struct trn_tokens_reload {
    unsigned total; /* tokens in the new file */
    unsigned added, removed, changed;
} trn_tokens_reload;

/* Loads the tokens file at path (NULL: no tokens; every call passes).
 * Returns 0, or -1 with err written (nothing to destroy then). */
int trn_token_store_init(trn_token_store *s, const char *path, char *err, size_t errlen);
void trn_token_store_destroy(trn_token_store *s);

/* Whether gRPC calls must carry a token: fixed at start-up. */
int trn_token_store_required(const trn_token_store *s);
/* Tokens in the published table. */
size_t trn_token_store_count(trn_token_store *s);

/* The token an `authorization` metadata value names, with a reference for
 * the caller (trn_token_unref), or NULL. */
trn_token *trn_token_store_authenticate(trn_token_store *s, const char *value, size_t len);

/* Reads the file again and publishes it (see above), logging each change.
 * Returns 0 with *r filled, or -1 with err naming the file (and the line)
 * and the reason: the published table stays. Call from one thread only. */
int trn_token_store_reload(trn_token_store *s, trn_tokens_reload *r, char *err, size_t errlen);

#endif
