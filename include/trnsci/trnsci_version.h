/*
 * trnsci_version.h — the release of trnsci this header belongs to.
 *
 * The one place the version is written: trnsci.h includes it for
 * applications, the daemon reports it in Hello (through proto/trnsci_wire.h),
 * and CMake reads the project's version from it.
 */
#ifndef TRNSCI_TRNSCI_VERSION_H
#define TRNSCI_TRNSCI_VERSION_H

#define TRNSCI_VERSION_MAJOR 0
#define TRNSCI_VERSION_MINOR 1
#define TRNSCI_VERSION_PATCH 0
/* Encoded like CUDART_VERSION: 1000 * major + 10 * minor. */
#define TRNSCI_VERSION (1000 * TRNSCI_VERSION_MAJOR + 10 * TRNSCI_VERSION_MINOR)

#endif /* TRNSCI_TRNSCI_VERSION_H */
