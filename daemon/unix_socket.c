/*
 * unix_socket.c — see unix_socket.h.
 */
#define _GNU_SOURCE
#include "daemon/unix_socket.h"

#include <errno.h>
#include <grp.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

int trn_unix_listen(const char *path, const char *group, const char *scheme, char *err,
                    size_t errlen) {
    struct sockaddr_un addr = {0};
    addr.sun_family = AF_UNIX;
    if (strlen(path) >= sizeof(addr.sun_path)) {
        snprintf(err, errlen, "socket path %s is longer than %zu bytes", path,
                 sizeof(addr.sun_path) - 1);
        return -1;
    }
    strcpy(addr.sun_path, path);
    const int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0)
        goto fail;
    unlink(path); /* a stale socket: the lock file says no daemon owns it */
    /* Created 0660 from the start (no window with wider permissions). Only
     * this thread creates files now: the umask change is not racing. */
    const mode_t old_umask = umask(0117);
    const int bound = bind(fd, (struct sockaddr *)&addr, sizeof(addr));
    umask(old_umask);
    if (bound != 0 || chmod(path, 0660) != 0)
        goto fail;
    if (group) {
        const struct group *g = getgrnam(group);
        if (!g) {
            snprintf(err, errlen, "--socket-group %s: no such group", group);
            close(fd);
            unlink(path);
            return -1;
        }
        if (chown(path, (uid_t)-1, g->gr_gid) != 0)
            goto fail;
    }
    if (listen(fd, 128) != 0)
        goto fail;
    return fd;
fail:
    snprintf(err, errlen, "cannot listen on %s:%s: %s", scheme, path, strerror(errno));
    if (fd >= 0) {
        close(fd);
        unlink(path);
    }
    return -1;
}
