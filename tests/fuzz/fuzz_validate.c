/*
 * fuzz_validate.c — libFuzzer target: request decoding and validation.
 *
 * Input: the bytes of a SubmitRequest, as a client sends them on either
 * transport. They are decoded with protobuf-c and the op (any family: the
 * Op oneof covers them all) goes through trn_validate_op against a session
 * whose buffer table holds four buffers of awkward sizes (1 byte, 24 bytes,
 * 4 KiB + 3, 64 KiB). On success every byte range the descriptor names is
 * not checked here, but every buffer reference taken is released, so ASan
 * reports any read or write outside a buffer the validator computed and
 * LeakSanitizer any reference that is lost.
 *
 * The session is built by hand (no scheduler, no plan cache): the validator
 * only reads the session's buffer and plan tables. It has no plan handles,
 * so FFT execution is fuzzed up to the plan lookup.
 *
 * trntensor element-wise ops and permutations (which may convert between
 * R_32F and R_64F, each operand at its own element size) are also run
 * through the CPU kernel, in three shards, after they validate: the
 * buffers are exactly their size, so ASan reports any element the kernel
 * reaches outside the ranges the validator accepted. (Their work is
 * bounded by D's elements, at most 16 Ki here; reductions are not run.)
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/session.h"
#include "daemon/validate.h"
#include "kernels/cpu/cpu_kernels.h"
#include "trnsci/v1/trnsci.pb-c.h"

static const uint64_t sizes[] = {1, 24, 4096 + 3, 65536};
#define NBUF (sizeof(sizes) / sizeof(sizes[0]))

static trn_session *fake_session(void) {
    static trn_session_table table;
    static trn_session s;
    static trn_buffer bufs[NBUF];
    if (s.table)
        return &s;
    atomic_init(&s.refs, 1);
    s.table = &table;
    pthread_mutex_init(&s.lock, NULL);
    trn_idmap_init(&s.buffers);
    trn_idmap_init(&s.plans);
    for (size_t i = 0; i < NBUF; i++) {
        bufs[i].id = i + 1;
        atomic_init(&bufs[i].refs, 1); /* the table's: never dropped */
        bufs[i].size = sizes[i];
        bufs[i].data = calloc(1, sizes[i]);
        bufs[i].owner = &s;
        if (!bufs[i].data || trn_idmap_put(&s.buffers, i + 1, &bufs[i]) != 0)
            abort();
    }
    return &s;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    trn_session *s = fake_session();
    Trnsci__V1__SubmitRequest *req = trnsci__v1__submit_request__unpack(NULL, size, data);
    if (!req)
        return 0;
    if (req->op) {
        trn_op_desc desc;
        trn_op_refs refs;
        memset(&desc, 0, sizeof(desc));
        memset(&refs, 0, sizeof(refs));
        char err[256];
        if (trn_validate_op(s, req->op, &desc, &refs, err, sizeof(err)) == TRN_WIRE_OK) {
            if (desc.kind == TRN_OP_TENSOR_ELEMENTWISE)
                for (int shard = 0; shard < 3; shard++)
                    trn_cpu_tensor_ew(&desc.u.tensor_ew, shard, 3);
            trn_op_refs_release(&refs);
        } else if (refs.n || refs.nmore || refs.plan || refs.owned)
            abort(); /* a failed validation must not hold anything */
    }
    trnsci__v1__submit_request__free_unpacked(req, NULL);
    for (size_t i = 0; i < NBUF; i++) {
        trn_buffer *b = trn_idmap_get(&s->buffers, i + 1);
        if (atomic_load(&b->refs) != 1)
            abort(); /* a reference leaked or was dropped twice */
    }
    return 0;
}
