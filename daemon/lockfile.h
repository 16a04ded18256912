/*
 * lockfile.h — one daemon per socket.
 *
 * gRPC unlinks a unix socket path before binding it, so a second daemon would
 * silently steal the socket of a live one. Each unix listen address is
 * guarded by "<path>.lock", held with flock(2) for the daemon's lifetime; the
 * kernel drops the lock when the process dies, however it dies.
 */
#ifndef TRN_DAEMON_LOCKFILE_H
#define TRN_DAEMON_LOCKFILE_H

#include <stddef.h>

/* Creates the socket's parent directory if missing and takes the lock.
 * Returns the lock's fd, or -1 with err written (held by another daemon, or
 * not creatable). */
int trn_lockfile_acquire(const char *socket_path, char *err, size_t errlen);

#endif
