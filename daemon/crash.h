/*
 * crash.h — a report in the log when the daemon dies of a fatal signal.
 *
 * A kernel that faults takes the daemon down with every client's work (the
 * MPS failure mode the daemon's design is meant to avoid). It must not
 * happen — tests place operands against guard pages and fuzz the
 * validators — but if it does, the log names the culprit: the signal and
 * the faulting address, the op the crashing worker was running (kind,
 * session, client, pid: trn_sched_running_op), and a backtrace. Then the
 * signal's default action runs, so a core dump is still written where the
 * system keeps them.
 *
 * Not installed in sanitizer builds, whose runtimes report faults
 * themselves.
 */
#ifndef TRN_DAEMON_CRASH_H
#define TRN_DAEMON_CRASH_H

#include <stddef.h>

#include "scheduler/sched.h"

/* Writes a one-line description of op into buf (called from the signal
 * handler, on the crashing thread). */
typedef void (*trn_crash_describe_fn)(const trn_sched_op *op, char *buf, size_t len);

/* Installs the handlers for SIGSEGV, SIGBUS, SIGFPE, SIGILL and SIGABRT.
 * describe may be NULL. Call once, at start-up. */
void trn_crash_install(trn_crash_describe_fn describe);

#endif
