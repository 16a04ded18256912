/*
 * lockfile.c — see lockfile.h. The lock file records the holder's pid, for
 * the error message a second daemon prints.
 */
#include "daemon/lockfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

static int mkdir_parent(const char *path, char *err, size_t errlen) {
    char dir[4096];
    snprintf(dir, sizeof(dir), "%s", path);
    char *slash = strrchr(dir, '/');
    if (!slash || slash == dir)
        return 0;
    *slash = '\0';
    struct stat st;
    if (stat(dir, &st) == 0)
        return 0;
    /* Create each missing component (like mkdir -p). */
    for (char *p = dir + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(dir, 0755) != 0 && errno != EEXIST)
            goto fail;
        *p = '/';
    }
    if (mkdir(dir, 0755) != 0 && errno != EEXIST)
        goto fail;
    return 0;
fail:
    snprintf(err, errlen, "cannot create directory %s for the socket: %s", dir, strerror(errno));
    return -1;
}

int trn_lockfile_acquire(const char *socket_path, char *err, size_t errlen) {
    char lock_path[4096 + 8];
    if (mkdir_parent(socket_path, err, errlen))
        return -1;
    snprintf(lock_path, sizeof(lock_path), "%s.lock", socket_path);
    const int fd = open(lock_path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) {
        snprintf(err, errlen, "cannot open lock file %s: %s", lock_path, strerror(errno));
        return -1;
    }
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
        char pid[32] = "";
        const ssize_t n = pread(fd, pid, sizeof(pid) - 1, 0);
        pid[n > 0 ? n : 0] = '\0';
        pid[strcspn(pid, "\n")] = '\0';
        snprintf(err, errlen,
                 "another trnscid (pid %s) is already serving unix:%s; stop it or choose "
                 "another --listen path",
                 pid[0] ? pid : "?", socket_path);
        close(fd);
        return -1;
    }
    char pid[32];
    const int len = snprintf(pid, sizeof(pid), "%ld\n", (long)getpid());
    if (ftruncate(fd, 0) != 0 || pwrite(fd, pid, (size_t)len, 0) != len) {
        /* The pid is informational only; the lock itself is held. */
    }
    return fd;
}
