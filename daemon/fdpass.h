/*
 * fdpass.h — one message with at most one file descriptor over a Unix
 * socket (SCM_RIGHTS): the executors' channels (exec_space.c) and the
 * zygote's requests (zygote.c).
 */
#ifndef TRN_DAEMON_FDPASS_H
#define TRN_DAEMON_FDPASS_H

#include <stddef.h>
#include <sys/types.h>

/* Sends len bytes of buf with fd (-1: none); flags as sendmsg's
 * (MSG_NOSIGNAL is always added). Retries on EINTR; returns sendmsg's
 * result. */
ssize_t trn_fdpass_send(int sock, const void *buf, size_t len, int fd, int flags);
/* Receives into buf (at most len bytes) and the descriptor that came with
 * it into *fd (-1: none), close-on-exec; flags as recvmsg's. Retries on
 * EINTR; returns recvmsg's result. */
ssize_t trn_fdpass_recv(int sock, void *buf, size_t len, int *fd, int flags);

#endif
