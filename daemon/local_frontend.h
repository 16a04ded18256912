/*
 * local_frontend.h — the local transport's listener: a libuv loop thread
 * serving unix:/path with the framing of trnsci_wire.h (trn_local_hdr).
 *
 * A connection carries at most one session, and the session ends when the
 * connection does (process exit or crash included). Buffers of such sessions
 * are sealed memfds whose descriptors travel with the Alloc reply, so the
 * client reads and writes device memory in place.
 */
#ifndef TRN_DAEMON_LOCAL_FRONTEND_H
#define TRN_DAEMON_LOCAL_FRONTEND_H

#include <stddef.h>

#include "daemon/service.h"

typedef struct trn_local_frontend trn_local_frontend;

/* Takes the socket's lock file, binds and listens on `path` (an absolute
 * filesystem path; mode 0660, group `group` when not NULL), and starts the
 * loop thread. With inherited_fd >= 0 (socket activation: a listening socket
 * already bound to `path`, now owned by the frontend) it serves that socket
 * instead of binding, and never unlinks the path. NULL with err written on
 * failure. */
trn_local_frontend *trn_local_frontend_start(trn_service *svc, const char *path, const char *group,
                                             int inherited_fd, char *err, size_t errlen);
/* Stops accepting new connections (existing ones keep being served). */
void trn_local_frontend_stop_accepting(trn_local_frontend *fe);
/* Closes every connection, stops the loop thread, unlinks the socket (unless
 * it was inherited). */
void trn_local_frontend_destroy(trn_local_frontend *fe);

#endif
