/*
 * systemd.c — see systemd.h. Uses libsystemd's sd-daemon calls, which speak
 * the documented environment protocols ($NOTIFY_SOCKET, $WATCHDOG_USEC,
 * $LISTEN_FDS) and do nothing when the variables are unset.
 */
#define _GNU_SOURCE
#include "daemon/systemd.h"

#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <sys/socket.h>
#include <systemd/sd-daemon.h>
#include <unistd.h>

#include "daemon/log.h"

void trn_systemd_notify(const char *fmt, ...) {
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    const int r = sd_notify(0, msg);
    if (r < 0)
        trn_log(TRN_LOG_WARN, "cannot notify the service manager: error %d", -r);
}

void trn_watchdog_init(trn_watchdog *w, uint64_t now_ms) {
    uint64_t usec = 0;
    w->interval_ms = 0;
    if (sd_watchdog_enabled(0, &usec) > 0 && usec > 0) {
        /* Half the timeout, as sd_watchdog_enabled(3) recommends; the main
         * loop wakes every 100 ms, so a ping is at most that late. */
        w->interval_ms = usec / 2000 ? usec / 2000 : 1;
        trn_log(TRN_LOG_INFO, "watchdog: %llu ms, pinging every %llu ms",
                (unsigned long long)(usec / 1000), (unsigned long long)w->interval_ms);
    }
    w->next_ms = now_ms;
}

void trn_watchdog_tick(trn_watchdog *w, uint64_t now_ms) {
    if (!w->interval_ms || now_ms < w->next_ms)
        return;
    sd_notify(0, "WATCHDOG=1");
    w->next_ms = now_ms + w->interval_ms;
}

int trn_inherited_fds_take(trn_inherited_fds *in, char *err, size_t errlen) {
    in->n = 0;
    const int n = sd_listen_fds(1);
    if (n < 0) {
        snprintf(err, errlen, "cannot read the sockets passed by the service manager: error %d",
                 -n);
        return -1;
    }
    if (n > TRN_SYSTEMD_MAX_FDS) {
        snprintf(err, errlen, "%d sockets passed by the service manager; at most %d", n,
                 TRN_SYSTEMD_MAX_FDS);
        return -1;
    }
    for (int i = 0; i < n; i++) {
        const int fd = SD_LISTEN_FDS_START + i;
        /* Not inherited further; the accept loop expects non-blocking. */
        fcntl(fd, F_SETFD, FD_CLOEXEC);
        fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
        in->fds[in->n++] = fd;
    }
    return 0;
}

int trn_inherited_fds_claim_unix(trn_inherited_fds *in, const char *path) {
    for (int i = 0; i < in->n; i++) {
        const int fd = in->fds[i];
        if (fd >= 0 && sd_is_socket_unix(fd, SOCK_STREAM, 1, path, 0) > 0) {
            in->fds[i] = -1;
            return fd;
        }
    }
    return -1;
}

void trn_inherited_fds_close_unclaimed(trn_inherited_fds *in) {
    for (int i = 0; i < in->n; i++) {
        if (in->fds[i] < 0)
            continue;
        trn_log(TRN_LOG_WARN,
                "socket activation: passed descriptor %d is not a listening unix stream socket "
                "on a --listen unix: path; closed",
                in->fds[i]);
        close(in->fds[i]);
        in->fds[i] = -1;
    }
}
