/*
 * self_exe.c — the path trnscid executes itself by (self_exe.h).
 */
#include "daemon/self_exe.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

const char *trn_self_exe(char *buf, size_t len) {
    const ssize_t n = len > 1 ? readlink("/proc/self/exe", buf, len - 1) : -1;
    if (n > 0 && (size_t)n < len - 1) {
        buf[n] = '\0';
        /* Still there, and still this binary: not "… (deleted)". */
        if (access(buf, X_OK) == 0)
            return buf;
    }
    snprintf(buf, len, "/proc/self/exe");
    return buf;
}
