/*
 * trnsci.h — the trnsci runtime API (the CUDA runtime analog).
 *
 * libtrnsci is a thin client of the trnscid daemon. A "device pointer" names
 * memory held by the daemon: pass it to trnsci kernels and to trnsciMemcpy.
 * Over a remote (TCP) connection it is opaque and must not be dereferenced,
 * exactly like a CUDA device pointer. A pointer plus an offset inside one
 * allocation is a valid device pointer.
 *
 * Every function returns a trnsciError_t. When the daemon rejects a request,
 * trnsciGetLastErrorMessage() returns its explanation. All functions are
 * thread-safe. Any call made before trnsciInit() initialises the library
 * with trnsciInit(NULL), as the CUDA runtime does.
 *
 * Deviations from the CUDA runtime are listed in docs/rosetta.md.
 */
#ifndef TRNSCI_TRNSCI_H
#define TRNSCI_TRNSCI_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TRNSCI_VERSION_MAJOR 0
#define TRNSCI_VERSION_MINOR 1
#define TRNSCI_VERSION_PATCH 0
/* Encoded like CUDART_VERSION: 1000 * major + 10 * minor. */
#define TRNSCI_VERSION (1000 * TRNSCI_VERSION_MAJOR + 10 * TRNSCI_VERSION_MINOR)

/* Values of the codes CUDA has are those of cudaError_t. */
typedef enum trnsciError {
    trnsciSuccess = 0,
    trnsciErrorInvalidValue = 1,
    trnsciErrorMemoryAllocation = 2,
    trnsciErrorInitializationError = 3,
    trnsciErrorInvalidMemcpyDirection = 21,
    trnsciErrorInsufficientDriver = 35, /* daemon speaks another protocol major */
    trnsciErrorDevicesUnavailable = 46, /* daemon went away or is shutting down */
    trnsciErrorNoDevice = 100,          /* no daemon at the address */
    trnsciErrorInvalidDevice = 101,
    trnsciErrorInvalidResourceHandle = 400,
    trnsciErrorNotReady = 600,
    trnsciErrorContextIsDestroyed = 709, /* the daemon ended this session */
    trnsciErrorLaunchFailure = 719,
    trnsciErrorNotPermitted = 800,
    trnsciErrorNotSupported = 801,
    trnsciErrorTimeout = 909,
    trnsciErrorUnknown = 999,
    /* trnsci extensions */
    trnsciErrorBusy = 10000,            /* a daemon limit was hit; retry later */
    trnsciErrorUnauthenticated = 10001, /* the daemon refused the credentials */
    trnsciErrorCancelled = 10002,       /* the op was cancelled before it ran */
} trnsciError_t;

typedef enum trnsciMemcpyKind {
    trnsciMemcpyHostToHost = 0,
    trnsciMemcpyHostToDevice = 1,
    trnsciMemcpyDeviceToHost = 2,
    trnsciMemcpyDeviceToDevice = 3,
    trnsciMemcpyDefault = 4 /* direction inferred from the pointers */
} trnsciMemcpyKind;

typedef enum trnsciDeviceAttr {
    /* Compute cores the daemon schedules on (cudaDevAttrMultiProcessorCount). */
    trnsciDevAttrMultiProcessorCount = 16,
} trnsciDeviceAttr;

/* Work on one stream runs in submission order; streams run concurrently.
 * NULL (0) is the default stream. */
typedef struct trnsciStream_st *trnsciStream_t;

/* Connects to a daemon and opens a session (a trnsci extension; cuInit analog).
 * address: NULL → $TRNSCI_ADDR, else the default local socket
 * ($XDG_RUNTIME_DIR/trnscid.sock, or /run/trnscid/trnscid.sock without
 * XDG_RUNTIME_DIR). Forms: "unix:/path", "host:port", and a comma-separated
 * list of TCP endpoints "h1:p1,h2:p2" (the session goes to one of them, chosen
 * by process id; unreachable ones are skipped). Calling it again once
 * initialised returns trnsciSuccess and does nothing. */
trnsciError_t trnsciInit(const char *address);

/* Closes the session: every buffer, stream and queued op of this process is
 * released by the daemon. The next call initialises again (cudaDeviceReset). */
trnsciError_t trnsciDeviceReset(void);

/* Allocates size bytes of zero-filled daemon memory. size 0 gives NULL. */
trnsciError_t trnsciMalloc(void **devPtr, size_t size);
/* Frees an allocation. Ops already queued on it complete first. NULL is a no-op. */
trnsciError_t trnsciFree(void *devPtr);

/* Copies count bytes. Synchronous with respect to the host, and ordered after
 * all work queued by this process, like cudaMemcpy. */
trnsciError_t trnsciMemcpy(void *dst, const void *src, size_t count, trnsciMemcpyKind kind);
/* Sets count bytes of device memory to (unsigned char)value, synchronously. */
trnsciError_t trnsciMemset(void *devPtr, int value, size_t count);

trnsciError_t trnsciStreamCreate(trnsciStream_t *pStream);
/* Waits for the stream's work, then releases it. */
trnsciError_t trnsciStreamDestroy(trnsciStream_t stream);
/* Waits for all work queued on the stream; returns the first execution error. */
trnsciError_t trnsciStreamSynchronize(trnsciStream_t stream);
/* Waits for all work queued by this process on every stream. */
trnsciError_t trnsciDeviceSynchronize(void);

/* The daemon is one device: *count is 1 when a daemon is reachable. */
trnsciError_t trnsciGetDeviceCount(int *count);
/* Device attributes of device 0 (the daemon). */
trnsciError_t trnsciDeviceGetAttribute(int *value, trnsciDeviceAttr attr, int device);
/* TRNSCI_VERSION of this library. */
trnsciError_t trnsciRuntimeGetVersion(int *runtimeVersion);

/* Returns the last error from a runtime call on this thread and resets it. */
trnsciError_t trnsciGetLastError(void);
/* Returns the last error from a runtime call on this thread without resetting. */
trnsciError_t trnsciPeekAtLastError(void);
/* Description and enum name of a code; never NULL. */
const char *trnsciGetErrorString(trnsciError_t error);
const char *trnsciGetErrorName(trnsciError_t error);
/* The explanation of the most recent failed call on this thread (the daemon's
 * message when the daemon rejected it), or "" after a success. Valid until the
 * thread's next trnsci call. A trnsci extension. */
const char *trnsciGetLastErrorMessage(void);

/* Daemon-wide counters (a trnsci extension; what `trnsci status` prints). */
typedef struct trnsciDaemonStatus {
    char daemonVersion[32];
    char backend[16];
    unsigned protocolMajor, protocolMinor;
    unsigned coreCount;
    unsigned sessions;
    uint64_t opsQueued, opsRunning, opsCompleted;
    uint64_t bytesHeld, buffers;
    uint64_t uptimeMs;
} trnsciDaemonStatus;

/* Queries the daemon at address (NULL: as trnsciInit) without opening a session. */
trnsciError_t trnsciDaemonGetStatus(const char *address, trnsciDaemonStatus *status);

/* One open session of a daemon (a trnsci extension). */
typedef struct trnsciSessionInfo {
    uint64_t number;   /* names the session in listings (never its private id) */
    char transport[8]; /* "local" (shared memory) or "grpc" */
    char clientName[64];
    unsigned pid; /* from the kernel (SO_PEERCRED) on the local transport */
    unsigned uid; /* local transport only; 0 otherwise */
    uint64_t bytes, buffers;
} trnsciSessionInfo;

/* Lists the daemon's open sessions: fills up to `capacity` entries and sets
 * *count to the number of sessions (which may exceed capacity). */
trnsciError_t trnsciDaemonGetSessions(const char *address, trnsciSessionInfo *sessions,
                                      int capacity, int *count);

#ifdef __cplusplus
}
#endif

#endif
