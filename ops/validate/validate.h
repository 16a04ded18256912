/*
 * validate.h — the one place where a wire op becomes a kernel descriptor.
 *
 * Every number a client sends is checked here, with overflow-checked
 * arithmetic (checked.h), before any scheduler or kernel code sees the op:
 * dimensions, leading dimensions, buffer ids, offsets, extents and
 * alignment. The validators are pure functions of the wire op and a table
 * of the caller's buffers and plans (trn_vhost), so the same code runs in
 * two places: the daemon validates everything it receives against a
 * session (daemon/validate.c), and libtrnsci validates each op against its
 * own allocations before it sends it, so that a bad argument fails in the
 * caller's process with the message the daemon would give.
 *
 * On success the descriptor holds raw pointers into the buffers, whose
 * references are in the context's refs (released when the op completes);
 * on failure nothing is held and the context's message names the argument
 * and the rule it broke. Each check returns a trn_wire_code (TRN_WIRE_OK or
 * the error) and writes its message with trn_vmsg.
 */
#ifndef TRN_OPS_VALIDATE_VALIDATE_H
#define TRN_OPS_VALIDATE_VALIDATE_H

#include <stddef.h>
#include <stdint.h>

#include "ops/op.h"
#include "trnsci/v1/trnsci.pb-c.h"
#include "trnsci_wire.h"

#define TRN_OP_MAX_BUFFERS 12

/* A buffer as the validators see it: where its bytes are and how many. */
typedef struct trn_vbuffer {
    void *data;
    uint64_t size;
} trn_vbuffer;

/* The batch layout of an FFT plan (cufftPlanMany's batch, idist, odist). */
typedef struct trn_fft_batch {
    uint64_t batch;
    uint64_t idist, odist; /* advanced layout; the basic one derives them */
} trn_fft_batch;

/* A plan handle as the validators see it. */
typedef struct trn_vplan {
    const trn_plan_spec *spec; /* what it computes */
    void *plan;                /* the backend's plan (NULL where none is built) */
    trn_fft_batch fft;         /* an FFT plan's batch layout */
} trn_vplan;

/* The caller's buffers and plans. Each get returns something to hold (a
 * reference, released by the matching put when the op is done), or NULL
 * when the caller has no such buffer or plan. */
typedef struct trn_vhost {
    void *(*buffer_get)(void *ctx, uint64_t id, trn_vbuffer *out);
    void (*buffer_put)(void *held);
    void *(*plan_get)(void *ctx, uint32_t id, trn_vplan *out);
    void (*plan_put)(void *held);
    /* Zeroed memory for a descriptor's arrays (trn_vowned), and its release;
     * *pool is handed back to owned_free. NULL hooks: calloc and free. The
     * daemon's come from the op arena its executors see (daemon/exec_space.h). */
    void *(*owned_alloc)(void *ctx, size_t bytes, void **pool);
    void (*owned_free)(void *pool, void *p);
} trn_vhost;

/* What a validated op holds until it completes. */
typedef struct trn_op_refs {
    const trn_vhost *host; /* whose references they are */
    void *buf[TRN_OP_MAX_BUFFERS];
    int n;
    void *plan;         /* the plan the op runs (a reference), or NULL */
    unsigned plan_part; /* the part of it the op needs */
    /* Ops whose number of operands is not bounded (pointer-array GEMM
     * batches, batched solvers): the references past buf[]
     * (trn_vregion_many), and a heap block the descriptor points into (its
     * arrays of operand pointers). Both are freed with the references. */
    void **more;
    int nmore, more_cap;
    void *owned, *owned_pool;
} trn_op_refs;

/* Empties refs, to hold host's references. */
void trn_op_refs_init(trn_op_refs *refs, const trn_vhost *host);
/* Releases everything refs holds; refs is empty afterwards. */
void trn_op_refs_release(trn_op_refs *refs);

/* One validation: the host and its context, the references taken, and the
 * message of the first rule broken. */
typedef struct trn_vctx {
    const trn_vhost *host;
    void *ctx;
    trn_op_refs *refs;
    char *err;
    size_t errlen;
} trn_vctx;

/* Zeroed memory of bytes bytes the descriptor points into, held by refs
 * (refs->owned: one block per op) until the op is done; NULL when out of
 * memory (bytes 0: NULL too). */
void *trn_vowned(trn_vctx *vx, uint64_t bytes);

/* Writes the context's message (printf-style). */
void trn_vmsg(trn_vctx *vx, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Resolves ref to a pointer to `bytes` bytes of one of the caller's
 * buffers, aligned to `align` bytes, and takes a reference into refs.
 * `what` names the argument in messages ("gemm: A"). bytes == 0 with buffer
 * id 0 gives NULL. At most TRN_OP_MAX_BUFFERS regions per op. */
trn_wire_code trn_vregion(trn_vctx *vx, const Trnsci__V1__BufferRef *ref, uint64_t bytes,
                          uint64_t align, const char *what, void **out);
/* As trn_vregion, the operand named "fn: name" (the text is made only for a
 * message). */
trn_wire_code trn_vregion_named(trn_vctx *vx, const Trnsci__V1__BufferRef *ref, uint64_t bytes,
                                uint64_t align, const char *fn, const char *name, void **out);
/* As trn_vregion, for ops with any number of operands: once buf[] is full
 * the reference goes to refs->more. */
trn_wire_code trn_vregion_many(trn_vctx *vx, const Trnsci__V1__BufferRef *ref, uint64_t bytes,
                               uint64_t align, const char *what, void **out);

/* The caller's plan `id` into *out, its reference held in refs->plan: 0,
 * or -1 when there is no such plan. */
int trn_vplan_get(trn_vctx *vx, uint32_t id, trn_vplan *out);

/* Validates op into out: TRN_WIRE_OK, or the error with vx's message (and
 * nothing held). UNIMPLEMENTED for an op kind this build does not know. */
trn_wire_code trn_validate_wire_op(trn_vctx *vx, const Trnsci__V1__Op *op, trn_op_desc *out);

/* One Write/Read/stage-out moves at most TRNSCI_WIRE_CHUNK_BYTES. */
trn_wire_code trn_validate_chunk(uint64_t len, const char *what, char *err, size_t errlen);
/* The same for data moved through a session's staging buffer:
 * len <= TRNSCI_WIRE_STAGING_BYTES. */
trn_wire_code trn_validate_staged(uint64_t len, const char *what, char *err, size_t errlen);

/* Plan specs (PlanCreate), pure functions of the wire spec: an FftPlanSpec
 * as a plan spec (the effort is left for the cache to set) and its batch
 * layout (fft.c); a TensorContractionSpec as a plan spec, checked and
 * canonical (tensor.c). */
trn_wire_code trn_vfft_plan(const Trnsci__V1__FftPlanSpec *w, trn_plan_spec *spec,
                            trn_fft_batch *batch, char *err, size_t errlen);
trn_wire_code trn_vtensor_plan(const Trnsci__V1__TensorContractionSpec *w, trn_plan_spec *spec,
                               char *err, size_t errlen);

/* ---- the per-kind validators ----------------------------------------------------- */

/* Each kind's validator, trn_vop_<stem> (stems: ops/op_kinds.h), checks the
 * kind's wire message in op into out's descriptor. Its family's file
 * (memory.c, gemm.c, blas*.c, fft.c, rand.c, solver*.c, sparse*.c,
 * tensor*.c) defines it with TRN_VALIDATE_ENTRY; trn_validate_wire_op
 * reaches it through the list, so a kind without one does not link. */
#define TRN_VOP_DECLARE(kind, value, wire, stem, field, label, title, family, engine)              \
    trn_wire_code trn_vop_##stem(trn_vctx *vx, const Trnsci__V1__Op *op, trn_op_desc *out);
TRN_OP_KINDS(TRN_VOP_DECLARE)
#undef TRN_VOP_DECLARE

#define TRN_VALIDATE_ENTRY(stem, call)                                                             \
    trn_wire_code trn_vop_##stem(trn_vctx *vx, const Trnsci__V1__Op *op, trn_op_desc *out) {       \
        return (call);                                                                             \
    }

#endif
