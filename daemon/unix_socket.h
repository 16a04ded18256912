/*
 * unix_socket.h — a listening unix stream socket with the daemon's access
 * rule, for both transports that serve one (unix: and grpc+unix:).
 *
 * Who may connect is who may write the socket file: mode 0660, owned by the
 * daemon's user and its group, or the group --socket-group names.
 */
#ifndef TRN_DAEMON_UNIX_SOCKET_H
#define TRN_DAEMON_UNIX_SOCKET_H

#include <stddef.h>

/* Binds and listens on path (an absolute filesystem path, replacing a stale
 * socket there: the caller holds its lock file), mode 0660 from the start,
 * group `group` when not NULL. `scheme` names the address in messages
 * ("unix", "grpc+unix"). Returns the listening descriptor (non-blocking,
 * close-on-exec), or -1 with err written. Call before other threads create
 * files: it sets the umask for the bind. */
int trn_unix_listen(const char *path, const char *group, const char *scheme, char *err,
                    size_t errlen);

#endif
