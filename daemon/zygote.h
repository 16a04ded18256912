/*
 * zygote.h — the executors' parent: a process forked from the daemon while
 * it still has one thread, which forks executor processes on request.
 *
 * Why: forking the running daemon would copy a process whose other threads
 * may hold locks (the allocator's, FFTW's, the log's) that no thread in the
 * child would ever release. The zygote is forked before any thread exists,
 * stays single-threaded and does nothing but fork, so every executor starts
 * from a clean copy of the daemon as it was at start — its backend, its
 * checked routines and the shared space (daemon/exec_space.h) — however
 * late it is started.
 *
 * The zygote reaps its children and reports each death (pid and wait status)
 * on its events descriptor. It dies with the daemon (PR_SET_PDEATHSIG), and
 * its children with it.
 */
#ifndef TRN_DAEMON_ZYGOTE_H
#define TRN_DAEMON_ZYGOTE_H

#include <stddef.h>

typedef struct trn_zygote trn_zygote;

/* A child's work: never returns. channel is its end of the socket the
 * daemon gave for it. */
typedef void (*trn_zygote_child_fn)(void *arg, int core, int channel);

/* Forks the zygote (call while the process has one thread). NULL with err. */
trn_zygote *trn_zygote_start(trn_zygote_child_fn fn, void *arg, char *err, size_t errlen);
/* Forks a child for core, giving it channel (which the caller keeps and
 * closes). Returns its pid, or -1 when the zygote is gone. Thread-safe. */
int trn_zygote_spawn(trn_zygote *z, int core, int channel);
/* The descriptor deaths are reported on (readable: call read_death). */
int trn_zygote_events_fd(const trn_zygote *z);
/* Reads one death report: 0 with *pid and *wstatus, -1 when the zygote is
 * gone (end of file). */
int trn_zygote_read_death(trn_zygote *z, int *pid, int *wstatus);
/* Ends the zygote, which kills its children, and waits for it. */
void trn_zygote_stop(trn_zygote *z);

#endif
