/*
 * systemd.h — trnscid as a systemd service: readiness, status and stopping
 * notifications (Type=notify), the watchdog (WatchdogSec=), and listening
 * sockets inherited by socket activation (trnscid.socket).
 *
 * Everything here is a no-op when the daemon does not run under systemd
 * (NOTIFY_SOCKET, WATCHDOG_USEC and LISTEN_FDS unset), so the same binary
 * runs from a shell, a container or a unit.
 */
#ifndef TRN_DAEMON_SYSTEMD_H
#define TRN_DAEMON_SYSTEMD_H

#include <stddef.h>
#include <stdint.h>

#define TRN_SYSTEMD_MAX_FDS 16

/* Sends a notification ("READY=1\nSTATUS=...", "STOPPING=1", ...) to the
 * service manager, if there is one. printf-style. */
void trn_systemd_notify(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The watchdog: when the unit sets WatchdogSec=, the main loop must send
 * WATCHDOG=1 more often than that; this pings at half the interval. */
typedef struct trn_watchdog {
    uint64_t interval_ms; /* 0: no watchdog */
    uint64_t next_ms;
} trn_watchdog;

void trn_watchdog_init(trn_watchdog *w, uint64_t now_ms);
/* Called from the main loop (at least every 100 ms): pings when due. */
void trn_watchdog_tick(trn_watchdog *w, uint64_t now_ms);

/* Descriptors passed by socket activation (LISTEN_FDS/LISTEN_PID), taken
 * once at start-up. */
typedef struct trn_inherited_fds {
    int fds[TRN_SYSTEMD_MAX_FDS]; /* -1 once claimed */
    int n;
} trn_inherited_fds;

/* Takes the inherited descriptors (and unsets LISTEN_* so children do not
 * see them). Returns 0, or -1 with err written if the passed set is
 * unusable (more than TRN_SYSTEMD_MAX_FDS). */
int trn_inherited_fds_take(trn_inherited_fds *in, char *err, size_t errlen);
/* The inherited listening unix stream socket bound to `path`, or -1;
 * claimed: the caller owns it. */
int trn_inherited_fds_claim_unix(trn_inherited_fds *in, const char *path);
/* Closes the descriptors nobody claimed, logging each as unused. */
void trn_inherited_fds_close_unclaimed(trn_inherited_fds *in);

#endif
