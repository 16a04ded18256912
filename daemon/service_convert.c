/*
 * service_convert.c — an op whose operands need a format conversion
 * (ops/convert_stage.h) is queued as two stages: the conversion, on the
 * engine the backend gives it (a copy engine), then the compute stage on
 * the cores. The op stays one op to its client, stream and metrics.
 *
 * The stages share scratch memory from the service's pool
 * (daemon/op_scratch.h), held by the op (trn_service_op.scratch) until it
 * completes. When the backend runs the op's conversion itself, when no
 * scratch can be had (the pool's cap), or for a graph's node (a sequence
 * already), the op stays one stage and converts inline: same result,
 * bitwise.
 */
#include "daemon/op_scratch.h"
#include "daemon/service_internal.h"
#include "ops/convert_stage.h"

void trn_service_convert_op(trn_service *svc, trn_service_op *op) {
    trn_sched_op *sop = &op->sop;
    const trn_backend *be = svc->backend;
    if (!svc->scratch || !be || !be->converts_ahead || sop->steps || sop->nthen > 0)
        return;
    const size_t bytes = trn_convert_stage_bytes(&sop->desc);
    if (bytes == 0 || !be->converts_ahead(be, &sop->desc))
        return;
    size_t len;
    void *mem = trn_op_scratch_get(svc->scratch, bytes, &len);
    if (!mem)
        return;
    trn_op_desc convert, compute;
    trn_convert_stage_split(&sop->desc, mem, &convert, &compute);
    sop->desc = convert;
    sop->then[0] = compute;
    sop->nthen = 1;
    op->scratch_pool = svc->scratch;
    op->scratch = mem;
    op->scratch_len = len;
}

void trn_service_convert_free(trn_service_op *op) {
    if (!op->scratch)
        return;
    trn_op_scratch_put(op->scratch_pool, op->scratch, op->scratch_len);
    op->scratch = NULL;
}
