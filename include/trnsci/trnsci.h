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
 * Asynchrony, as CUDA's launches: work queued on a stream (every library
 * routine of the six families, the *Async copies and memsets, event records
 * and waits) returns once its arguments are checked, in this process,
 * without waiting for the daemon (local transport: a push on a shared-memory
 * ring; gRPC: a message on the session's Launch stream).
 * A bad argument is that call's error. An error that arises later — the
 * daemon refuses the op, its kernel fails, its deadline passes — is kept for
 * the op's stream and returned by the next trnsciStreamSynchronize of that
 * stream, or trnsciDeviceSynchronize (and the copies that synchronise the
 * device), with a message naming the op: family and routine, its launch
 * number (this process's launches, counted from 1) and its stream
 * (trnsciStreamGetId). Other streams' work is unaffected. When the daemon's
 * queue for this process is full, a launch blocks until there is room.
 * TRNSCI_LAUNCH_BLOCKING=1 makes every launch wait for the daemon to queue
 * it (its refusal is then the launch's error), as CUDA_LAUNCH_BLOCKING=1.
 * docs/rosetta.md lists which errors are immediate and which are deferred.
 * Results are visible to the host after a synchronising call that covers
 * them: trnsciStreamSynchronize, trnsciDeviceSynchronize,
 * trnsciEventSynchronize, or a successful trnsciEventQuery/trnsciStreamQuery.
 *
 * Deviations from the CUDA runtime are listed in docs/rosetta.md.
 */
#ifndef TRNSCI_TRNSCI_H
#define TRNSCI_TRNSCI_H

#include <stddef.h>
#include <stdint.h>

#include <trnsci/library_types.h>
#include <trnsci/trnsci_version.h>

/* The CUDA runtime API level trnsci's runtime follows, encoded as
 * CUDART_VERSION (1000 * major + 10 * minor): 12000, CUDA 12.0, whose
 * signatures it has (trnsciGraphInstantiate with flags, trnsciStreamGetId,
 * the CUDA 12 trnsciStreamGetCaptureInfo). Code written as
 * `#if CUDART_VERSION >= 11000` keeps working when renamed to
 * TRNSCIRT_VERSION; trnsciRuntimeGetVersion returns it. trnsci's own
 * release is TRNSCI_VERSION (trnsci_version.h). */
#define TRNSCIRT_VERSION 12000

/* C++ default arguments where CUDA's runtime API has them (its __dv(v)). */
#ifdef __cplusplus
#define TRNSCI_DEFAULT(v) = v
#else
#define TRNSCI_DEFAULT(v)
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Values of the codes CUDA has are those of cudaError_t. */
typedef enum trnsciError {
    trnsciSuccess = 0,
    trnsciErrorInvalidValue = 1,
    trnsciErrorMemoryAllocation = 2,
    trnsciErrorInitializationError = 3,
    trnsciErrorInvalidPitchValue = 12, /* a 2D copy's pitch is less than its width */
    trnsciErrorInvalidMemcpyDirection = 21,
    trnsciErrorInsufficientDriver = 35, /* daemon speaks another protocol major */
    trnsciErrorDevicesUnavailable = 46, /* daemon went away or is shutting down */
    trnsciErrorNoDevice = 100,          /* no daemon at the address */
    trnsciErrorInvalidDevice = 101,
    trnsciErrorInvalidResourceHandle = 400,
    trnsciErrorIllegalState = 401, /* e.g. beginning a capture on a capturing stream */
    trnsciErrorNotReady = 600, /* a query: the work has not completed (not recorded as an error) */
    trnsciErrorContextIsDestroyed = 709,          /* the daemon ended this session */
    trnsciErrorHostMemoryAlreadyRegistered = 712, /* trnsciHostRegister on registered memory */
    trnsciErrorHostMemoryNotRegistered = 713,     /* trnsciHostUnregister of unregistered memory */
    trnsciErrorLaunchFailure = 719,
    trnsciErrorNotPermitted = 800,
    trnsciErrorNotSupported = 801,
    /* Stream capture and graphs (trnsci_graph.h). */
    trnsciErrorStreamCaptureUnsupported = 900, /* not permitted while capturing */
    trnsciErrorStreamCaptureInvalidated = 901, /* an earlier error ended the capture */
    trnsciErrorStreamCaptureMerge = 902,       /* would merge two captures */
    trnsciErrorStreamCaptureUnmatched = 903,   /* EndCapture without BeginCapture */
    trnsciErrorStreamCaptureUnjoined = 904,    /* a forked stream did not join back */
    trnsciErrorStreamCaptureIsolation = 905,   /* a dependency from outside the capture */
    trnsciErrorStreamCaptureImplicit = 906,
    trnsciErrorCapturedEvent = 907, /* the event was recorded in a capture */
    trnsciErrorStreamCaptureWrongThread = 908,
    trnsciErrorTimeout = 909,
    trnsciErrorGraphExecUpdateFailure = 910,
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

/* Device attributes (cudaDeviceAttr, same values). Each is the field of
 * trnsciDeviceProp named in the comment; docs/rosetta.md gives the values
 * and why. */
typedef enum trnsciDeviceAttr {
    trnsciDevAttrMaxThreadsPerBlock = 1,                /* maxThreadsPerBlock */
    trnsciDevAttrMaxBlockDimX = 2,                      /* maxThreadsDim[0] */
    trnsciDevAttrMaxBlockDimY = 3,                      /* maxThreadsDim[1] */
    trnsciDevAttrMaxBlockDimZ = 4,                      /* maxThreadsDim[2] */
    trnsciDevAttrMaxGridDimX = 5,                       /* maxGridSize[0] */
    trnsciDevAttrMaxGridDimY = 6,                       /* maxGridSize[1] */
    trnsciDevAttrMaxGridDimZ = 7,                       /* maxGridSize[2] */
    trnsciDevAttrMaxSharedMemoryPerBlock = 8,           /* sharedMemPerBlock */
    trnsciDevAttrTotalConstantMemory = 9,               /* totalConstMem */
    trnsciDevAttrWarpSize = 10,                         /* warpSize */
    trnsciDevAttrMaxPitch = 11,                         /* memPitch, capped at INT_MAX */
    trnsciDevAttrMaxRegistersPerBlock = 12,             /* regsPerBlock */
    trnsciDevAttrClockRate = 13,                        /* clockRate */
    trnsciDevAttrTextureAlignment = 14,                 /* textureAlignment */
    trnsciDevAttrGpuOverlap = 15,                       /* deviceOverlap */
    trnsciDevAttrMultiProcessorCount = 16,              /* the daemon's compute cores */
    trnsciDevAttrKernelExecTimeout = 17,                /* kernelExecTimeoutEnabled */
    trnsciDevAttrIntegrated = 18,                       /* integrated */
    trnsciDevAttrCanMapHostMemory = 19,                 /* canMapHostMemory */
    trnsciDevAttrComputeMode = 20,                      /* computeMode */
    trnsciDevAttrConcurrentKernels = 31,                /* concurrentKernels */
    trnsciDevAttrEccEnabled = 32,                       /* ECCEnabled */
    trnsciDevAttrPciBusId = 33,                         /* pciBusID */
    trnsciDevAttrPciDeviceId = 34,                      /* pciDeviceID */
    trnsciDevAttrMemoryClockRate = 36,                  /* memoryClockRate */
    trnsciDevAttrGlobalMemoryBusWidth = 37,             /* memoryBusWidth */
    trnsciDevAttrL2CacheSize = 38,                      /* l2CacheSize */
    trnsciDevAttrMaxThreadsPerMultiProcessor = 39,      /* maxThreadsPerMultiProcessor */
    trnsciDevAttrAsyncEngineCount = 40,                 /* asyncEngineCount */
    trnsciDevAttrUnifiedAddressing = 41,                /* unifiedAddressing */
    trnsciDevAttrPciDomainId = 50,                      /* pciDomainID */
    trnsciDevAttrComputeCapabilityMajor = 75,           /* major */
    trnsciDevAttrComputeCapabilityMinor = 76,           /* minor */
    trnsciDevAttrStreamPrioritiesSupported = 78,        /* streamPrioritiesSupported */
    trnsciDevAttrGlobalL1CacheSupported = 79,           /* globalL1CacheSupported */
    trnsciDevAttrLocalL1CacheSupported = 80,            /* localL1CacheSupported */
    trnsciDevAttrMaxSharedMemoryPerMultiprocessor = 81, /* sharedMemPerMultiprocessor */
    trnsciDevAttrMaxRegistersPerMultiprocessor = 82,    /* regsPerMultiprocessor */
    trnsciDevAttrManagedMemory = 83,                    /* managedMemory */
    trnsciDevAttrIsMultiGpuBoard = 84,                  /* isMultiGpuBoard */
    trnsciDevAttrHostNativeAtomicSupported = 86,        /* hostNativeAtomicSupported */
    trnsciDevAttrPageableMemoryAccess = 88,             /* pageableMemoryAccess */
    trnsciDevAttrConcurrentManagedAccess = 89,          /* concurrentManagedAccess */
    trnsciDevAttrCooperativeLaunch = 95,                /* cooperativeLaunch */
    trnsciDevAttrMaxBlocksPerMultiprocessor = 106,      /* maxBlocksPerMultiProcessor */
    trnsciDevAttrMemoryPoolsSupported = 115,            /* memoryPoolsSupported */
} trnsciDeviceAttr;

/* What trnsciGetDeviceProperties reports (the fields of cudaDeviceProp that
 * programs read, same names and types). The daemon runs no user kernels:
 * the thread and block fields describe one thread per compute core, and the
 * on-chip memories it does not have are 0. docs/rosetta.md gives each value
 * and why. */
/* The compute capability trnsciGetDeviceProperties reports: the NVIDIA
 * architecture whose library features trnsci's libraries provide (FP16, BF16
 * and TF32 math modes, Blocked-ELL SpMM), so that a program gating such a
 * feature on `major >= 7` or `>= 8` takes it. It says nothing about
 * kernels: trnsci runs none. */
#define TRNSCI_COMPUTE_CAPABILITY_MAJOR 8
#define TRNSCI_COMPUTE_CAPABILITY_MINOR 0

typedef struct trnsciDeviceProp {
    char name[256];        /* "trnscid <version> (<backend>, <N> cores)" */
    size_t totalGlobalMem; /* as trnsciMemGetInfo's total */
    size_t sharedMemPerBlock;
    int regsPerBlock;
    int warpSize;
    size_t memPitch; /* largest pitch trnsciMemcpy2D takes */
    int maxThreadsPerBlock;
    int maxThreadsDim[3];
    int maxGridSize[3];
    int clockRate; /* kHz; 0: not known to the client */
    size_t totalConstMem;
    int major; /* TRNSCI_COMPUTE_CAPABILITY_MAJOR */
    int minor; /* TRNSCI_COMPUTE_CAPABILITY_MINOR */
    size_t textureAlignment;
    int deviceOverlap;
    int multiProcessorCount; /* the daemon's compute cores */
    int kernelExecTimeoutEnabled;
    int integrated;       /* 1 on the local transport (shared memory) */
    int canMapHostMemory; /* 1 on the local transport */
    int computeMode;      /* 0: default, shared by every process */
    int concurrentKernels;
    int ECCEnabled;
    int pciBusID;
    int pciDeviceID;
    int pciDomainID;
    int asyncEngineCount;
    int unifiedAddressing;
    int memoryClockRate;
    int memoryBusWidth;
    int l2CacheSize;
    int maxThreadsPerMultiProcessor;
    int streamPrioritiesSupported;
    int globalL1CacheSupported;
    int localL1CacheSupported;
    size_t sharedMemPerMultiprocessor;
    int regsPerMultiprocessor;
    int managedMemory;
    int isMultiGpuBoard;
    int hostNativeAtomicSupported;
    int pageableMemoryAccess;
    int concurrentManagedAccess;
    int cooperativeLaunch;
    int maxBlocksPerMultiProcessor;
    int memoryPoolsSupported;
} trnsciDeviceProp;

/* Work on one stream runs in submission order; streams run concurrently.
 * NULL (0) is the default stream. */
typedef struct trnsciStream_st *trnsciStream_t;

/* Flags of trnsciStreamCreateWithFlags (cudaStreamDefault, …). Every
 * stream, the default one included, already behaves as
 * trnsciStreamNonBlocking: the two flags give the same stream. */
#define trnsciStreamDefault 0x00u
#define trnsciStreamNonBlocking 0x01u

/* Flags of trnsciHostAlloc (cudaHostAllocDefault, …): accepted; every
 * allocation behaves the same (see trnsciHostAlloc). */
#define trnsciHostAllocDefault 0x00u
#define trnsciHostAllocPortable 0x01u
#define trnsciHostAllocMapped 0x02u
#define trnsciHostAllocWriteCombined 0x04u

/* Flags of trnsciHostRegister (cudaHostRegisterDefault, …). */
#define trnsciHostRegisterDefault 0x00u
#define trnsciHostRegisterPortable 0x01u
#define trnsciHostRegisterMapped 0x02u
#define trnsciHostRegisterIoMemory 0x04u /* refused: trnsciErrorNotSupported */
#define trnsciHostRegisterReadOnly 0x08u

/* A marker in a stream's work (cudaEvent_t): recorded on a stream, it
 * completes when everything queued on that stream before it has. */
typedef struct trnsciEvent_st *trnsciEvent_t;

/* Flags of trnsciEventCreateWithFlags (cudaEventDefault, …). */
#define trnsciEventDefault 0x00u
/* Accepted for CUDA compatibility: waiting always blocks the thread. */
#define trnsciEventBlockingSync 0x01u
/* The event records no time: trnsciEventElapsedTime refuses it. */
#define trnsciEventDisableTiming 0x02u

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

/* Copies count bytes in stream order: the copy happens after the work queued
 * on `stream` before it, and work queued after it sees its result
 * (cudaMemcpyAsync). Host memory is treated like CUDA pageable memory:
 *  - HostToDevice: returns once src has been read (staged in the daemon over
 *    gRPC; copied into the mapped buffer on the local transport), so src may
 *    be reused at once;
 *  - DeviceToHost: over gRPC returns at once; the data is written into dst
 *    by a library thread, and is there once a synchronising call covers the
 *    copy (trnsciStreamSynchronize(stream), trnsciDeviceSynchronize, or
 *    trnsciEventSynchronize/Query on an event recorded after it). dst must
 *    stay valid until then. On the local transport the call waits for the
 *    stream's earlier work and copies before returning;
 *  - DeviceToDevice: queued on the stream, never waits;
 *  - HostToHost: an immediate memmove.
 * On the local transport HostToDevice likewise waits for the stream's
 * earlier work, then copies. */
/* Pinned host memory (trnsciMallocHost, trnsciHostAlloc) on the local
 * transport: a host-to-device or device-to-host copy whose host side lies in
 * one pinned allocation is a copy op queued on the stream, as device to
 * device: the call never waits, and the host must not touch the host side
 * until a synchronising call covers the copy (CUDA's rule for pinned
 * memory). Over gRPC pinned memory is copied as pageable memory. */
trnsciError_t trnsciMemcpyAsync(void *dst, const void *src, size_t count, trnsciMemcpyKind kind,
                                trnsciStream_t stream TRNSCI_DEFAULT(0));
/* Sets count bytes of device memory to (unsigned char)value in stream order,
 * without waiting (cudaMemsetAsync). */
trnsciError_t trnsciMemsetAsync(void *devPtr, int value, size_t count,
                                trnsciStream_t stream TRNSCI_DEFAULT(0));

/* Copies a matrix of `height` rows of `width` bytes, rows `spitch` bytes
 * apart in src and `dpitch` bytes apart in dst (cudaMemcpy2D), with
 * trnsciMemcpy's ordering and synchronisation. A pitch less than width is
 * trnsciErrorInvalidPitchValue; width or height 0 does nothing. On the
 * device side the whole span ((height - 1) * pitch + width bytes) must lie
 * in one allocation; it is checked before anything is copied. */
trnsciError_t trnsciMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                             size_t height, trnsciMemcpyKind kind);
/* trnsciMemcpy2D in stream order, row by row as trnsciMemcpyAsync
 * (cudaMemcpy2DAsync). When both pitches equal width it is one copy. */
trnsciError_t trnsciMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch,
                                  size_t width, size_t height, trnsciMemcpyKind kind,
                                  trnsciStream_t stream TRNSCI_DEFAULT(0));
/* Sets `height` rows of `width` bytes, `pitch` bytes apart, to
 * (unsigned char)value, with trnsciMemset's synchronisation (cudaMemset2D).
 * A pitch less than width is trnsciErrorInvalidValue. */
trnsciError_t trnsciMemset2D(void *devPtr, size_t pitch, int value, size_t width, size_t height);
/* trnsciMemset2D in stream order, one memset op per row (one in all when
 * pitch equals width), without waiting (cudaMemset2DAsync). */
trnsciError_t trnsciMemset2DAsync(void *devPtr, size_t pitch, int value, size_t width,
                                  size_t height, trnsciStream_t stream TRNSCI_DEFAULT(0));

/* Stream-ordered allocation (cudaMallocAsync): the memory is allocated at
 * once, so work queued on any stream after the call may use it. The daemon
 * has no memory pools: this is trnsciMalloc (zero-filled, same quota). */
trnsciError_t trnsciMallocAsync(void **devPtr, size_t size, trnsciStream_t stream);
/* Stream-ordered free (cudaFreeAsync): returns at once; the memory is
 * released once the ops queued on it, on any stream, have completed (which
 * includes those queued on `stream` before the call). The pointer may not be
 * used after the call. NULL is a no-op. */
trnsciError_t trnsciFreeAsync(void *devPtr, trnsciStream_t stream);

/* Page-locked host memory (cudaMallocHost, cudaHostAlloc). On the local
 * transport it is a buffer of the daemon's shared memory mapped into this
 * process, so the daemon copies to and from it itself: trnsciMemcpyAsync
 * between it and device memory is queued, not done by the calling thread
 * (see trnsciMemcpyAsync), and it may also be passed to library routines as
 * a device pointer (CUDA's mapped pinned memory under unified addressing).
 * It counts against the session's memory quota and is freed by
 * trnsciDeviceReset, as CUDA's is by cudaDeviceReset. Over gRPC it is
 * ordinary page-aligned process memory, copied as pageable memory. Not
 * zero-filled. size 0 gives NULL. Free it with trnsciFreeHost only. */
trnsciError_t trnsciMallocHost(void **ptr, size_t size);
/* The device pointer of pinned memory (cudaHostGetDevicePointer): on the
 * local transport, pHost itself (any address inside a trnsciMallocHost or
 * trnsciHostAlloc allocation, whatever its flags). Over gRPC, and for
 * registered or ordinary memory, the daemon cannot reach it:
 * trnsciErrorInvalidValue. flags must be 0. */
trnsciError_t trnsciHostGetDevicePointer(void **pDevice, void *pHost, unsigned int flags);
/* trnsciMallocHost with trnsciHostAlloc* flags (any other bit is
 * trnsciErrorInvalidValue). The flags change nothing. */
trnsciError_t trnsciHostAlloc(void **pHost, size_t size, unsigned int flags);
/* Frees memory from trnsciMallocHost/trnsciHostAlloc (NULL is a no-op);
 * anything else is trnsciErrorInvalidValue. Waits for device-to-host
 * copies into it still being delivered (gRPC). */
trnsciError_t trnsciFreeHost(void *ptr);
/* Registers existing host memory (cudaHostRegister). Recorded, so that
 * trnsciHostUnregister and the CUDA error codes behave as CUDA's, but the
 * daemon cannot reach memory it did not allocate: copies to and from
 * registered memory stay pageable copies. NULL or size 0 is
 * trnsciErrorInvalidValue, a range overlapping registered or pinned memory
 * trnsciErrorHostMemoryAlreadyRegistered, trnsciHostRegisterIoMemory
 * trnsciErrorNotSupported. Needs no daemon. */
trnsciError_t trnsciHostRegister(void *ptr, size_t size, unsigned int flags);
/* Forgets a registration made at ptr (its start), after device-to-host
 * copies into it still being delivered; anything else is
 * trnsciErrorHostMemoryNotRegistered. */
trnsciError_t trnsciHostUnregister(void *ptr);

/* Free and total memory of the device, in bytes (cudaMemGetInfo): *total is
 * the session's quota (--max-session-bytes), on the local transport at most
 * the machine's physical memory; *free is *total less this process's live
 * allocations (trnsciMalloc and pinned memory), on the local transport at
 * most the machine's available memory (MemAvailable). Daemon-side memory
 * that is not an allocation (staging, plans) is not counted. */
trnsciError_t trnsciMemGetInfo(size_t *free, size_t *total);

trnsciError_t trnsciStreamCreate(trnsciStream_t *pStream);
/* trnsciStreamCreate with trnsciStreamDefault or trnsciStreamNonBlocking
 * (the same stream here); any other bit is trnsciErrorInvalidValue. */
trnsciError_t trnsciStreamCreateWithFlags(trnsciStream_t *pStream, unsigned int flags);
/* trnsciStreamCreateWithFlags with a priority (cudaStreamCreateWithPriority).
 * Priorities belong to sessions here (trnsciSetSessionPriority), not
 * streams: the stream's priority is clamped into
 * trnsciDeviceGetStreamPriorityRange's [0, 0], as CUDA clamps, so it is
 * always 0 and orders nothing. */
trnsciError_t trnsciStreamCreateWithPriority(trnsciStream_t *pStream, unsigned int flags,
                                             int priority);
/* The flags the stream was created with (NULL: trnsciStreamDefault). */
trnsciError_t trnsciStreamGetFlags(trnsciStream_t stream, unsigned int *flags);
/* The stream's priority: always 0 (see trnsciStreamCreateWithPriority). */
trnsciError_t trnsciStreamGetPriority(trnsciStream_t stream, int *priority);
/* Stream priorities have no effect: *least and *greatest are 0 (CUDA's
 * answer for a device without them). Either may be NULL. Session priorities
 * are trnsciDeviceGetSessionPriorityRange. */
trnsciError_t trnsciDeviceGetStreamPriorityRange(int *leastPriority, int *greatestPriority);
/* Waits for the stream's work, then releases it. */
trnsciError_t trnsciStreamDestroy(trnsciStream_t stream);
/* Waits for all work queued on the stream; returns the error of the earliest
 * launch on it that failed since the stream's last synchronising call (see
 * Asynchrony above), once. */
trnsciError_t trnsciStreamSynchronize(trnsciStream_t stream);
/* Waits for all work queued by this process on every stream; returns the
 * error of the earliest failed launch of any stream (the message counts the
 * other streams' failures), once. */
trnsciError_t trnsciDeviceSynchronize(void);
/* The stream's id, unique in this process (cudaStreamGetId): how messages
 * about an op name its stream. The default stream (NULL) is 0. */
trnsciError_t trnsciStreamGetId(trnsciStream_t stream, unsigned long long *streamId);
/* trnsciSuccess when all work queued on the stream has completed (device-to-
 * host copies delivered included), trnsciErrorNotReady otherwise. Does not
 * wait (cudaStreamQuery). */
trnsciError_t trnsciStreamQuery(trnsciStream_t stream);

/* Per-stream timeout (a trnsci extension; NULL is the default stream). Every
 * op queued on the stream afterwards (trnblas and trnrand calls, async copies and
 * memsets, event records and waits) must start within `ms` milliseconds of
 * reaching the daemon; one that does not fails with trnsciErrorTimeout,
 * reported by the next synchronising call, and the work queued behind it on
 * the stream is cancelled. trnsciStreamSynchronize on the stream gives up
 * after `ms` with trnsciErrorTimeout and cancels the work still queued on the
 * stream (running work finishes). The stream stays usable. 0 (the default)
 * means no limit. */
trnsciError_t trnsciStreamSetTimeout(trnsciStream_t stream, unsigned int ms);
/* The stream's timeout in milliseconds (0: none). */
trnsciError_t trnsciStreamGetTimeout(trnsciStream_t stream, unsigned int *ms);

/* Creates an event (cudaEventCreate); no round trip to the daemon. */
trnsciError_t trnsciEventCreate(trnsciEvent_t *event);
/* Creates an event with trnsciEventDefault, trnsciEventBlockingSync and/or
 * trnsciEventDisableTiming; any other bit is trnsciErrorInvalidValue. */
trnsciError_t trnsciEventCreateWithFlags(trnsciEvent_t *event, unsigned int flags);
/* Destroys an event. A record still pending completes on its own. */
trnsciError_t trnsciEventDestroy(trnsciEvent_t event);
/* Records the event on the stream (NULL: the default stream): it will
 * complete when the work queued on the stream so far has. Recording again
 * replaces the previous record. */
trnsciError_t trnsciEventRecord(trnsciEvent_t event, trnsciStream_t stream TRNSCI_DEFAULT(0));
/* trnsciSuccess when the event's latest record has completed (or it was
 * never recorded), trnsciErrorNotReady otherwise. Does not wait. */
trnsciError_t trnsciEventQuery(trnsciEvent_t event);
/* Waits until the event's latest record has completed, and any device-to-
 * host copy queued before it on its stream has been delivered. Returns at
 * once for an event never recorded. */
trnsciError_t trnsciEventSynchronize(trnsciEvent_t event);
/* *ms = the time between the completions of start and end, in milliseconds
 * (resolution about a microsecond; negative when end completed first).
 * trnsciErrorNotReady when either has not completed,
 * trnsciErrorInvalidResourceHandle when either was never recorded or was
 * created with trnsciEventDisableTiming. */
trnsciError_t trnsciEventElapsedTime(float *ms, trnsciEvent_t start, trnsciEvent_t end);
/* Work queued on `stream` after this call waits until the event's latest
 * record (as of this call) has completed (cudaStreamWaitEvent). flags must
 * be 0. An event never recorded imposes no wait. */
trnsciError_t trnsciStreamWaitEvent(trnsciStream_t stream, trnsciEvent_t event,
                                    unsigned int flags TRNSCI_DEFAULT(0));

/* Session priorities (a trnsci extension, after MPS client priorities and
 * cudaDeviceGetStreamPriorityRange). They rank this process's whole session
 * against the daemon's other sessions: a session of priority p gets a share
 * of the engines proportional to 2^-p. Lower numbers are more urgent; 0 is
 * the default. */

/* The meaningful range [*greatest, *least]: *least is the least urgent
 * priority, *greatest the most urgent this daemon grants (its ceiling).
 * Either pointer may be NULL. Both 0 when the daemon has no priorities. */
trnsciError_t trnsciDeviceGetSessionPriorityRange(int *least, int *greatest);
/* Asks for a priority. The daemon clamps it into the range above;
 * trnsciGetSessionPriority tells what the session got. Before the session is
 * open (before the first call that initialises), the request is kept and sent
 * when the session opens; it also applies to sessions opened after
 * trnsciDeviceReset. Without a call, $TRNSCI_SESSION_PRIORITY (an integer)
 * gives the initial request. */
trnsciError_t trnsciSetSessionPriority(int priority);
/* The session's effective priority (initialises the library). */
trnsciError_t trnsciGetSessionPriority(int *priority);

/* The daemon is one device: *count is 1 when a daemon is reachable. */
trnsciError_t trnsciGetDeviceCount(int *count);
/* Device attributes of device 0 (the daemon); an attribute not listed in
 * trnsciDeviceAttr is trnsciErrorInvalidValue. */
trnsciError_t trnsciDeviceGetAttribute(int *value, trnsciDeviceAttr attr, int device);
/* Describes device 0, the daemon's backend (cudaGetDeviceProperties). */
trnsciError_t trnsciGetDeviceProperties(trnsciDeviceProp *prop, int device);
/* Device 0 is the only device: initialises the library (as cudaSetDevice
 * makes the device's primary context current); any other ordinal is
 * trnsciErrorInvalidDevice. */
trnsciError_t trnsciSetDevice(int device);
/* *device = 0, the only device (does not initialise). */
trnsciError_t trnsciGetDevice(int *device);
/* TRNSCIRT_VERSION, the CUDA runtime level this library follows. */
trnsciError_t trnsciRuntimeGetVersion(int *runtimeVersion);
/* TRNSCIRT_VERSION when a daemon of this library's protocol answers; 0 with
 * trnsciSuccess when none is reachable (cudaDriverGetVersion's answer
 * without a driver). Initialises the library. */
trnsciError_t trnsciDriverGetVersion(int *driverVersion);

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
    unsigned workers; /* engine worker threads (see trnsciDaemonGetWorkers) */
} trnsciDaemonStatus;

/* What a session or an engine worker has done since it started. */
typedef struct trnsciUsage {
    uint64_t ops;     /* kernel ops completed (sessions only; 0 for workers) */
    uint64_t shards;  /* shards run */
    uint64_t queueNs; /* time ops (sessions) or shards (workers) waited for a worker, summed */
    uint64_t runNs;   /* worker time spent running them, summed */
    double cost;      /* FLOPs, plus bytes touched by data movement */
    uint64_t expired; /* ops that missed their deadline */
} trnsciUsage;

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
    int priority;        /* effective session priority (lower is more urgent) */
    unsigned opsPending; /* ops queued or running */
    trnsciUsage usage;
} trnsciSessionInfo;

/* Lists the daemon's open sessions that this caller may see (with a bearer
 * token, that token's; on the local socket, every session for root and the
 * daemon's own user, else the caller's uid's): fills up to `capacity`
 * entries and sets *count to the number listed (which may exceed capacity,
 * and may be less than trnsciDaemonStatus.sessions, a daemon-wide count). */
trnsciError_t trnsciDaemonGetSessions(const char *address, trnsciSessionInfo *sessions,
                                      int capacity, int *count);

/* One worker thread of a daemon engine (a trnsci extension). */
typedef struct trnsciWorkerInfo {
    char engine[8]; /* "core" (computation) or "copy" (data movement) */
    unsigned index; /* within its engine */
    int cpu;        /* the CPU it is pinned to, or -1 */
    trnsciUsage usage;
} trnsciWorkerInfo;

/* Lists the daemon's engine workers, as trnsciDaemonGetSessions lists
 * sessions: fills up to `capacity` entries and sets *count to the number of
 * workers. */
trnsciError_t trnsciDaemonGetWorkers(const char *address, trnsciWorkerInfo *workers, int capacity,
                                     int *count);

/* The daemon's plan cache (a trnsci extension): plans (FFT plans, ...) are
 * made once and shared by every process, and with --cache-dir kept across
 * restarts. Counters are since the daemon started. */
typedef struct trnsciPlanCacheStats {
    uint64_t hits, misses;   /* plan creations that found / did not find the plan */
    uint64_t entries, bytes; /* cached plans and their estimated memory */
    uint64_t maxBytes;       /* --plan-cache-bytes */
    uint64_t evictions;
    uint64_t builds, buildFailures; /* plan parts prepared (FFTW planner calls) */
    double buildSeconds;            /* time spent planning */
    double savedSeconds;            /* planning cost of the plans hits found (as first
                                       measured, also for plans a restart re-made) */
    int prewarmDone;                /* the persisted plans have been prepared */
} trnsciPlanCacheStats;

/* One cached plan. */
typedef struct trnsciPlanInfo {
    char key[160];       /* e.g. "fft c2c 1048576 basic measure" */
    char state[200];     /* "ready", "warming", "unprepared" or "failed: <why>" */
    uint64_t hits;       /* creations that found it */
    uint64_t uses;       /* handles and queued ops holding it now */
    uint64_t bytes;      /* estimated memory */
    uint64_t idleMs;     /* since its last use (0 while in use) */
    double buildSeconds; /* what planning it cost when it was made */
} trnsciPlanInfo;

/* Lists the plan cache, most recently used first: fills up to `capacity`
 * entries, sets *count to the number of plans and, when stats is not NULL,
 * the cache's counters. */
trnsciError_t trnsciDaemonGetPlans(const char *address, trnsciPlanInfo *plans, int capacity,
                                   int *count, trnsciPlanCacheStats *stats);
/* Drops every cached plan no handle or queued op uses (and the persisted
 * manifest's entries for them); *cleared and *kept (may be NULL) count the
 * plans dropped and those in use that stayed. */
trnsciError_t trnsciDaemonClearPlans(const char *address, unsigned *cleared, unsigned *kept);
/* Prepares, in the background, the plans a manifest lists (the format of
 * the cache directory's plans.manifest: docs/operations.md). *queued and
 * *rejected (may be NULL) count the lines accepted and refused; the daemon
 * logs why a line was refused. */
trnsciError_t trnsciDaemonWarmPlans(const char *address, const char *manifest, unsigned *queued,
                                    unsigned *rejected);

/* The daemon's self-test of the outside routines its kernels call (a
 * trnsci extension; what `trnsci selftest` prints). At start-up, before it
 * serves, trnscid checks every OpenBLAS, LAPACK and FFTW routine its CPU
 * kernels call against long double references on awkward shapes; a routine
 * that fails is never called again: it is replaced by the first of its
 * alternatives that passes, or refused (the ops that need it fail with
 * trnsciErrorNotSupported and a message naming it). */
typedef struct trnsciSelfTestRoutine {
    char routine[32];     /* "cblas_scasum", "LAPACKE_dpotrf_work", "fftwf_plan_many_dft" */
    char group[8];        /* "blas1", "blas2", "blas3", "lapack" or "fftw" */
    char result[12];      /* "passed" (the library's routine), "replaced" or "refused" */
    char used[48];        /* what runs: "OpenBLAS", "LAPACK (OpenBLAS)", "FFTW", an
                             alternative such as "cblas_sasum over 2n reals", "in-tree",
                             or "refused" */
    unsigned cases;       /* cases the library's routine was checked on */
    unsigned failedCases; /* of them, how many failed */
    double worstRatio;    /* its largest error relative to the error bound */
    double ms;            /* time its checks took */
    char verdict[12];     /* its verdict: "passed", "failed", "crashed", "timed out" */
    char detail[320];     /* the first failing case and by how much, or how it crashed */
} trnsciSelfTestRoutine;

typedef struct trnsciSelfTestSummary {
    unsigned checked, passed, replaced, refused; /* routines */
    double seconds;                              /* wall time of the run */
    unsigned processes;                          /* checking processes at once */
    char blasCore[32];                           /* OpenBLAS's kernel set, e.g. "Cooperlake" */
    char blasConfig[160];                        /* OpenBLAS's build (openblas_get_config) */
    char blasWhy[256];                           /* why that kernel set (trnscid --blas-coretype) */
    uint64_t finishedUnixMs;
    int onDemand; /* 0: the start-up run */
} trnsciSelfTestSummary;

/* The daemon's latest self-test report (rerun = 0), or a new run's (rerun =
 * 1: about a second of every core; a request during a run waits for it).
 * Fills up to `capacity` routines, sets *count to their number (both may be
 * 0/NULL) and, when summary is not NULL, the run's totals. */
trnsciError_t trnsciDaemonSelfTest(const char *address, int rerun, trnsciSelfTestRoutine *routines,
                                   int capacity, int *count, trnsciSelfTestSummary *summary);

#ifdef __cplusplus
}

/* The typed allocation overloads cuda_runtime.h gives C++ code, so that
 * `float *p; cudaMalloc(&p, n)` ports by renaming. Each casts and calls
 * the function above. (extern "C++": a C++ file may include this header
 * inside an extern "C" block.) */
extern "C++" {
template <class T> static inline trnsciError_t trnsciMalloc(T **devPtr, size_t size) {
    return trnsciMalloc((void **)(void *)devPtr, size);
}
template <class T>
static inline trnsciError_t trnsciMallocAsync(T **devPtr, size_t size, trnsciStream_t stream) {
    return trnsciMallocAsync((void **)(void *)devPtr, size, stream);
}
template <class T> static inline trnsciError_t trnsciMallocHost(T **ptr, size_t size) {
    return trnsciMallocHost((void **)(void *)ptr, size);
}
template <class T>
static inline trnsciError_t trnsciHostAlloc(T **ptr, size_t size, unsigned int flags) {
    return trnsciHostAlloc((void **)(void *)ptr, size, flags);
}
template <class T>
static inline trnsciError_t trnsciHostGetDevicePointer(T **pDevice, void *pHost,
                                                       unsigned int flags) {
    return trnsciHostGetDevicePointer((void **)(void *)pDevice, pHost, flags);
}
}
#endif

#include <trnsci/trnsci_graph.h>

#endif
