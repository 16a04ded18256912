/*
 * signals.h — SIGTERM/SIGINT/SIGHUP as readable events for the main loop.
 *
 * Libraries start threads before main() runs (OpenBLAS's pool is created by a
 * constructor), so blocking signals in main cannot keep them from being
 * delivered to some other thread. Instead a handler, which may run on any
 * thread, writes the signal number into a pipe that the main loop reads.
 */
#ifndef TRN_DAEMON_SIGNALS_H
#define TRN_DAEMON_SIGNALS_H

#define TRN_SIGNAL_STOP 1   /* SIGTERM or SIGINT */
#define TRN_SIGNAL_RELOAD 2 /* SIGHUP */

/* Installs the handlers; returns the non-blocking read end of the pipe, or -1. */
int trn_signals_install(void);
/* Drains the pipe; returns a mask of TRN_SIGNAL_* received since the last call. */
int trn_signals_read(int fd);
/* Restores default handling and closes the pipe. */
void trn_signals_uninstall(int fd);

#endif
