/*
 * nc_runtime.h — the Neuron runtime inside one process: starting it on the
 * cores the process was given, and the kernel programs loaded on them.
 *
 * One process owns a NeuronCore. The daemon asks the runtime which cores it
 * may have in a child process (trn_nc_probe), so that it never holds them
 * itself when its executors are to own them, one each; then the process
 * that runs kernels starts the runtime (trn_nc_runtime_start).
 *
 * Loaded programs stay resident on their core until their plan is released,
 * or until device memory runs out: then the least recently used program of
 * that core that is not running is unloaded and the load tried again, so a
 * program in use is never evicted.
 */
#ifndef TRN_KERNELS_NEURON_NC_RUNTIME_H
#define TRN_KERNELS_NEURON_NC_RUNTIME_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#include "kernels/neuron/nrt_api.h"
#include "ops/write_clock.h"

/* Tensors a program has (the GEMM program has five). */
#define TRN_NC_MAX_TENSORS 40 /* a gemm_seq of 8 nodes has up to 33 */
/* NeuronCores one process drives (a trn2.48xlarge has 128). */
#define TRN_NC_MAX_CORES 128
/* Sets of tensors a loaded program may have: a second lets the next
 * execution's inputs be written while the current one runs. */
#define TRN_NC_SETS 2

/* What an input tensor of one set holds, so that writing the same again
 * can be skipped (an operand left resident in the core's memory,
 * gemm_neuron.c): the bytes packed from host memory [lo, hi) the way `how`
 * says (its packer's own key), as they were at write-clock tick `since`.
 * valid 0: not known (never written, or a write failed). ahead: written by a
 * move ahead for the next op, which has not found it yet (its traffic is
 * counted as moved, not as kept). */
#define TRN_NC_HELD_HOW 16
typedef struct trn_nc_held {
    int valid, ahead;
    uint64_t since;
    uintptr_t lo, hi;
    uint64_t how[TRN_NC_HELD_HOW];
} trn_nc_held;

/* A span of host memory [lo, hi) copied into one core's memory, as it
 * was at write-clock tick `since`: one copy of a matrix on the core that
 * every program there binds, through a slice, in place of its own input
 * tensor (core_copy.h). Never freed while a tensor set binds it (binds). */
typedef struct trn_nc_core_copy {
    int core;
    uintptr_t lo, hi;
    trn_nrt_tensor *tensor;
    uint64_t since;
    int valid; /* 0: a write failed, its bytes are not known */
    int binds;
    uint64_t last_use;
    struct trn_nc_core_copy *next;
} trn_nc_core_copy;

/* A program loaded on one core, with its input and output tensors in that
 * core's memory, bound to the model by name: one set of them, or two once
 * a pipelined run asked for the second (trn_nc_add_set). An input of a set
 * may instead bind a slice of a core copy (bound, slice). */
typedef struct trn_nc_loaded {
    trn_nrt_model *model;
    int core;
    int ntensors;
    int nsets;
    struct {
        char name[TRN_NRT_TENSOR_NAME_MAX];
        trn_nrt_tensor *tensor[TRN_NC_SETS];
        size_t size;
        int output;
        trn_nc_held held[TRN_NC_SETS]; /* inputs */
        trn_nc_core_copy *bound[TRN_NC_SETS];
        trn_nrt_tensor *slice[TRN_NC_SETS]; /* of bound, in the set instead of tensor */
        uintptr_t slice_lo[TRN_NC_SETS];    /* the host address its first byte copies */
    } t[TRN_NC_MAX_TENSORS];
    trn_nrt_tensor_set *in[TRN_NC_SETS], *out[TRN_NC_SETS];
    uint64_t bytes; /* NEFF plus tensors */
    uint64_t last_use;
    int busy;                    /* running: never evicted */
    struct trn_nc_loaded **home; /* the owner's pointer to it (NULLed on eviction) */
    struct trn_nc_loaded *next;
} trn_nc_loaded;

/* The process's DMA queue: moves between host and device memory run on a
 * thread of their own, in the order they were queued, so that a core's
 * next inputs are written while it executes (the copy engine beside the
 * compute engine). Started with the first job. */
#define TRN_NC_COPY_JOBS 8
typedef struct trn_nc_copy_queue {
    pthread_mutex_t lock;
    pthread_cond_t changed;
    pthread_t thread;
    int started, stopping;
    struct {
        void (*fn)(void *arg);
        void *arg;
    } jobs[TRN_NC_COPY_JOBS];
    uint64_t queued, done; /* job tickets: job t is done when done >= t */
} trn_nc_copy_queue;

/* Bytes moved between host memory and NeuronCores' memory, and bytes of
 * operands not moved because a core held them current (resident), summed
 * over every process that runs GEMMs: it lives in memory they share
 * (daemon: the executors' op arena). timed_bytes and timed_ns: the writes
 * to cores of at least TRN_NC_TIMED_MIN_BYTES (nc_cost.h), and how long
 * they took: the measured move rate. */
typedef struct trn_nc_traffic {
    _Atomic uint64_t to_cores, from_cores, kept;
    _Atomic uint64_t timed_bytes, timed_ns;
    _Atomic uint64_t pack_ns; /* host time packing operands and unpacking results */
    _Atomic uint64_t on_core; /* operand bytes copied within a core's memory, not moved */
    _Atomic uint64_t bound;   /* operand bytes an execution read from a core copy */
    /* Bytes of the core copies each core holds now (core_copy.h), by the
     * daemon's index of the core; an executor's slot starts at 0 with it. */
    _Atomic uint64_t copy_bytes[TRN_NC_MAX_CORES];
} trn_nc_traffic;

typedef struct trn_nc_runtime {
    trn_nrt_api api;
    pthread_mutex_t lock; /* the loaded list and the core copies */
    int started;
    uint32_t ncores; /* visible to this process */
    trn_nc_loaded *loaded;
    trn_nc_core_copy *core_copy_list;
    uint64_t clock;
    uint64_t loads, evictions;
    trn_nc_copy_queue copies;
    /* When set, input tensors are written only when what they hold
     * (trn_nc_held) is out of date by this clock: operands stay resident.
     * NULL: every input is written for every execution. Set after
     * trn_nc_runtime_start, which clears it. */
    const trn_write_clock *wclock;
    /* Where the GEMMs' moves are counted, or NULL (set as wclock is). */
    trn_nc_traffic *traffic;
    /* 1: a real GEMM's matrices laid out as its program's tensors are
     * kept as one copy per core that programs bind (core_copy.h); needs
     * wclock. Set as wclock is. */
    int core_copies;
    /* The daemon's index of this runtime's logical core 0 (an executor's
     * core; 0 when one runtime drives every core): traffic's per-core
     * slots are core_base + logical core. */
    int core_base;
    /* Inputs of the next op moved while the current one executes
     * (gemm_neuron.h, trn_ngemm_next): the DMA queue's ticket of that move
     * and its memory (one block), until trn_ngemm_ahead_wait. */
    uint64_t ahead_ticket;
    void *ahead_job;
} trn_nc_runtime;

/* In a child process: loads library (NULL: the default places), starts the
 * runtime, counts the visible cores, stops it. Returns 0 with *count, or -1
 * with msg: what the runtime printed and its status (cores in use by
 * another process, no device, …). *loaded says whether the library could be
 * loaded at all; *taken whether it refused for lack of a free core. */
int trn_nc_probe(const char *library, uint32_t *count, int *loaded, int *taken, char *msg,
                 size_t msglen);

/* Loads the library and starts the runtime in this process. visible: a
 * NEURON_RT_VISIBLE_CORES value, or NULL to keep the environment's. Returns
 * 0, or -1 with msg. */
int trn_nc_runtime_start(trn_nc_runtime *rt, const char *library, const char *visible, char *msg,
                         size_t msglen);
/* Unloads every program, stops the runtime, closes the library. */
void trn_nc_runtime_stop(trn_nc_runtime *rt);

/* Loads neff onto logical core `core` with its tensors; *home is set to it
 * and cleared if it is ever evicted. Marks it busy. Returns it, or NULL with
 * msg (kind: TRN_NRT_RESOURCE when the core's memory cannot hold it even
 * after evicting everything idle there). */
trn_nc_loaded *trn_nc_load(trn_nc_runtime *rt, const void *neff, size_t size, int core,
                           trn_nc_loaded **home, trn_nrt_status *kind, char *msg, size_t msglen);
/* The program *home points to, marked busy, or NULL when it is not loaded
 * (never was, or was evicted). */
trn_nc_loaded *trn_nc_acquire(trn_nc_runtime *rt, trn_nc_loaded **home);
/* Marks a loaded program running (busy) or done with. */
void trn_nc_use(trn_nc_runtime *rt, trn_nc_loaded *ld, int busy);
/* Unloads it (its owner is done with it). */
void trn_nc_unload(trn_nc_runtime *rt, trn_nc_loaded *ld);

/* Frees the least recently used core copy bound by no program on core,
 * else unloads the least recently used idle program there: 1, or 0 when
 * there was neither (lock held; drains the DMA queue first). */
int trn_nc_evict_one_locked(trn_nc_runtime *rt, int core);

/* A new, unwritten core copy of host bytes [lo, lo + n) on core, in the
 * runtime's list and counted in traffic's copy_bytes, or NULL when the
 * core's memory cannot hold it even after freeing copies that nothing
 * binds. Programs are not unloaded for it: a program keeps its own tensors
 * beside the copies it binds, so that would cost more than the copy saves
 * (lock held; core_copy.h binds copies). */
trn_nc_core_copy *trn_nc_copy_new_locked(trn_nc_runtime *rt, int core, uintptr_t lo, size_t n);
/* Frees c, which nothing binds (lock held). */
void trn_nc_copy_drop_locked(trn_nc_runtime *rt, const trn_nc_core_copy *c);
/* Drops input ti of ld's set `set`'s binding of a core copy, if any: its
 * slice freed, the copy bound once less (lock held; the caller makes the
 * set name another tensor, or frees the set). */
void trn_nc_copy_release_locked(trn_nc_runtime *rt, trn_nc_loaded *ld, int set, int ti);

/* Gives ld (busy: the caller's) its second set of tensors, unless it has
 * it: allocated on its core, making room from idle programs there. Returns
 * 0, or -1 when the core's memory cannot hold it (the caller goes on with
 * one set). */
int trn_nc_add_set(trn_nc_runtime *rt, trn_nc_loaded *ld);

/* Set `set`'s tensor called name, or NULL. */
trn_nrt_tensor *trn_nc_tensor(const trn_nc_loaded *ld, int set, const char *name, size_t *size);

/* Set `set`'s input (output = 0) or output tensor called name; when the
 * program names its tensors otherwise (a compiler may), the index-th one of
 * that usage in the program's order. NULL when there is none. */
trn_nrt_tensor *trn_nc_port(const trn_nc_loaded *ld, int set, const char *name, int output,
                            int index, size_t *size);

/* The port trn_nc_port finds (input or output), as an index of ld->t, or
 * -1 when there is none. */
int trn_nc_port_index(const trn_nc_loaded *ld, const char *name, int output, int index);

/* Queues fn(arg) on the process's DMA queue; returns its ticket, or 0 when
 * the queue's thread cannot be started (the caller runs fn itself). */
uint64_t trn_nc_copy_queue_add(trn_nc_runtime *rt, void (*fn)(void *arg), void *arg);
/* Waits until the job of ticket (and every one before it) has run. */
void trn_nc_copy_queue_wait(trn_nc_runtime *rt, uint64_t ticket);
/* Waits until every job queued so far has run. Unloading and evicting a
 * program call it first: a queued job may be writing its tensors. */
void trn_nc_copy_queue_drain(trn_nc_runtime *rt);

/* "nrt_execute: NRT_TIMEOUT" style text of a failed call. */
void trn_nc_status_text(const char *call, trn_nrt_status st, char *buf, size_t len);

#endif
