/*
 * self_exe.h — the path trnscid executes itself by (to pick OpenBLAS's
 * kernel set, blas_coretype.h, and to start the self-test's children,
 * selftest.h).
 */
#ifndef TRN_DAEMON_SELF_EXE_H
#define TRN_DAEMON_SELF_EXE_H

#include <stddef.h>

/* The running binary's path (so that the new process is named after it in
 * ps and top, which "/proc/self/exe" would not be), or "/proc/self/exe"
 * when that path is gone (the binary was replaced while running). Writes
 * into buf; returns buf. */
const char *trn_self_exe(char *buf, size_t len);

#endif
