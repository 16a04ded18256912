/*
 * neff_compile.h — runs the Neuron compiler (--neuron-cc) in a process of
 * its own: its version, and one kernel program into one NEFF
 * (kernels/neuron/program.h gives the command line).
 *
 * The compiler runs with its output captured (the first kilobytes are kept
 * for the message of a failure), stdin from /dev/null, and a deadline: a
 * compile still running at the deadline is killed with its whole process
 * group. Callers bound how many run at once (the plan cache's compile
 * threads).
 */
#ifndef TRN_KERNELS_NEURON_NEFF_COMPILE_H
#define TRN_KERNELS_NEURON_NEFF_COMPILE_H

#include <stddef.h>

/* The first line `compiler --version` prints, into out. Returns 0, or -1
 * with msg. */
int trn_neff_compiler_version(const char *compiler, char *out, size_t outlen, char *msg,
                              size_t msglen);

typedef struct trn_neff_compile_job {
    const char *compiler;
    const char *source, *kernel, *params, *target;
    const char *output; /* the NEFF's path */
    int timeout_ms;
} trn_neff_compile_job;

/* Runs one compile. Returns 0 when the compiler exited with 0, else -1 with
 * msg: its exit status or signal and what it printed, or that it passed the
 * deadline. */
int trn_neff_compile(const trn_neff_compile_job *job, char *msg, size_t msglen);

#endif
