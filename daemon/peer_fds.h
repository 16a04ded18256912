/*
 * peer_fds.h — who is at the other end of a grpc+unix connection.
 *
 * gRPC core tells a server nothing about a call's peer but a string, and for
 * a unix socket it has no credentials to give. So the daemon accepts the
 * connections of its grpc+unix sockets itself (an accept thread), reads the
 * client's uid, gid and pid from the kernel (SO_PEERCRED), and hands each
 * connection to gRPC (grpc_server_add_channel_from_fd), whose calls on it
 * then report the peer "fd:N", N the descriptor number the connection was
 * handed over at. This table maps N back to the credentials.
 *
 * Descriptor numbers are reused by the kernel as soon as they are closed,
 * so a call of a connection that gRPC has just closed could be attributed to
 * a newer connection at the same number. Attribution is made safe by never
 * handing a connection over at a number whose last record might still be
 * needed:
 *  - each connection is placed (F_DUPFD) at a number chosen by a cursor
 *    that moves on after every connection and wraps only at the end of a
 *    range, so numbers come round again only after many connections;
 *  - a number keeps its record after its connection closes (seen when the
 *    number no longer refers to the socket that was placed there: its
 *    inode), and is skipped by the placement until the record retires: at
 *    least TRN_PEER_FDS_GRACE_MS after the close was seen, and after the
 *    gRPC thread has twice found its completion queue empty since (so every
 *    call of the old connection that had reached the daemon was
 *    attributed: trn_peer_fds_drained).
 * A number with no record (e.g. a descriptor gRPC made itself) is not one of
 * these connections, and a call reporting it is refused.
 *
 * Threads: the accept thread places and records; the gRPC thread looks up
 * and reports drains; both under the table's lock (the drain count is
 * atomic).
 */
#ifndef TRN_DAEMON_PEER_FDS_H
#define TRN_DAEMON_PEER_FDS_H

#include <stddef.h>

#include "daemon/call.h"

#define TRN_PEER_FDS_GRACE_MS 10000u
#define TRN_PEER_FDS_MAX_LISTEN 8

typedef struct trn_peer_fds trn_peer_fds;

/* Called on the accept thread with a connection placed at fd (recorded):
 * hands it to gRPC, which owns it from then on. */
typedef void (*trn_peer_fds_serve)(void *ctx, int fd);

trn_peer_fds *trn_peer_fds_create(void);
/* Adds a listening socket (taken over; non-blocking) named `name` in log
 * lines. Before trn_peer_fds_start only. Returns 0, or -1 when there are
 * already TRN_PEER_FDS_MAX_LISTEN. */
int trn_peer_fds_add_listener(trn_peer_fds *p, int fd, const char *name);
/* Starts the accept thread. Returns 0, or -1 with err written. */
int trn_peer_fds_start(trn_peer_fds *p, trn_peer_fds_serve serve, void *ctx, char *err,
                       size_t errlen);
/* Stops accepting (joins the thread, closes the listening sockets); calls
 * already handed over go on. Idempotent. */
void trn_peer_fds_stop(trn_peer_fds *p);
void trn_peer_fds_destroy(trn_peer_fds *p);

/* The credentials of the connection a call reports as `peer` ("fd:N"):
 * 1 with *out filled (known, uid, gid, pid; token untouched), 0 when peer
 * is not of that form (a TCP connection), -1 when it is but names no
 * connection of the table. */
int trn_peer_fds_lookup(trn_peer_fds *p, const char *peer, trn_peer *out);
/* The gRPC thread found its completion queue empty. */
void trn_peer_fds_drained(trn_peer_fds *p);

#endif
