/*
 * blas_coretype.h — which of OpenBLAS's kernel sets trnscid runs.
 *
 * Debian's OpenBLAS is built for every x86-64 CPU and picks a kernel set
 * ("Haswell", "SkylakeX", "Cooperlake", …) when it is loaded, from the CPU
 * model, unless OPENBLAS_CORETYPE names one. It reads that variable in a
 * library constructor, before main, so the daemon cannot change its choice
 * in place: when the set it wants differs from the one loaded, it sets
 * OPENBLAS_CORETYPE and executes itself again (same pid, same arguments;
 * the second start finds the variable as it wants it and carries on).
 *
 * --blas-coretype (config key blas-coretype) takes:
 *   auto     the default: OpenBLAS's choice, except where OpenBLAS 0.3.21
 *            does not know the CPU model and falls back to its generic
 *            "Prescott" (SSE3) kernels on a CPU that has AVX-512 or AVX2;
 *            then the best set the CPU can run (Cooperlake with AVX-512
 *            BF16, else SkylakeX, else Haswell). An OPENBLAS_CORETYPE in
 *            the environment is always kept.
 *   default  OpenBLAS's choice (or the environment's), never changed.
 *   NAME     one of Prescott, Nehalem, Sandybridge, Haswell, Zen, SkylakeX,
 *            Cooperlake; refused when the CPU lacks its instructions.
 * Whichever set runs, the start-up self-test checks it (kernels/cpu/selftest).
 */
#ifndef TRN_DAEMON_BLAS_CORETYPE_H
#define TRN_DAEMON_BLAS_CORETYPE_H

#include <stddef.h>

/* Whether the CPU can run kernel set name (known to this module). Returns
 * 1, 0 (it lacks an instruction set: missing says which), or -1 (not a
 * name this module knows). */
int trn_blas_coretype_runnable(const char *name, char *missing, size_t len);

/* The kernel set `setting` (NULL = "auto") asks for on this CPU, given what
 * OpenBLAS loaded (loaded) and the environment's OPENBLAS_CORETYPE (env,
 * or NULL): writes it into want (empty when nothing is to change) and why
 * into why. Returns 0, or -1 with err (unknown name, or the CPU cannot run
 * it). */
int trn_blas_coretype_choose(const char *setting, const char *loaded, const char *env, char *want,
                             size_t wantlen, char *why, size_t whylen, char *err, size_t errlen);

/* Applies setting: when a different kernel set is wanted, sets
 * OPENBLAS_CORETYPE and executes /proc/self/exe with argv (does not return
 * on success). Returns 0 when nothing had to change (why says which set
 * runs and why), -1 with err otherwise. */
int trn_blas_coretype_apply(const char *setting, char *const argv[], char *why, size_t whylen,
                            char *err, size_t errlen);

#endif
