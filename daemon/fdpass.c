/*
 * fdpass.c — a message and one descriptor over a Unix socket (fdpass.h).
 */
#include "daemon/fdpass.h"

#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>

typedef union {
    char buf[CMSG_SPACE(sizeof(int))];
    struct cmsghdr align;
} fd_control;

ssize_t trn_fdpass_send(int sock, const void *buf, size_t len, int fd, int flags) {
    struct iovec iov = {.iov_base = (void *)buf, .iov_len = len};
    fd_control u;
    struct msghdr mh = {.msg_iov = &iov, .msg_iovlen = 1};
    if (fd >= 0) {
        memset(&u, 0, sizeof(u));
        mh.msg_control = u.buf;
        mh.msg_controllen = sizeof(u.buf);
        struct cmsghdr *c = CMSG_FIRSTHDR(&mh);
        c->cmsg_level = SOL_SOCKET;
        c->cmsg_type = SCM_RIGHTS;
        c->cmsg_len = CMSG_LEN(sizeof(int));
        memcpy(CMSG_DATA(c), &fd, sizeof(int));
    }
    ssize_t n;
    do
        n = sendmsg(sock, &mh, flags | MSG_NOSIGNAL);
    while (n < 0 && errno == EINTR);
    return n;
}

ssize_t trn_fdpass_recv(int sock, void *buf, size_t len, int *fd, int flags) {
    struct iovec iov = {.iov_base = buf, .iov_len = len};
    fd_control u;
    struct msghdr mh = {
        .msg_iov = &iov, .msg_iovlen = 1, .msg_control = u.buf, .msg_controllen = sizeof(u.buf)};
    ssize_t n;
    do
        n = recvmsg(sock, &mh, flags | MSG_CMSG_CLOEXEC);
    while (n < 0 && errno == EINTR);
    *fd = -1;
    if (n < 0)
        return n;
    for (struct cmsghdr *c = CMSG_FIRSTHDR(&mh); c; c = CMSG_NXTHDR(&mh, c))
        if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS)
            memcpy(fd, CMSG_DATA(c), sizeof(int));
    return n;
}
