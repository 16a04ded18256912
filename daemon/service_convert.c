/*
 * service_convert.c — an op whose operands need a format conversion
 * (ops/convert_stage.h) is queued as two stages: the conversion, on the
 * engine the backend gives it (a copy engine), then the compute stage on
 * the cores. The op stays one op to its client, stream and metrics.
 *
 * The stages share scratch memory from the service's pool
 * (daemon/op_scratch.h), charged to the session and held by the op
 * (trn_service_op.convert) until it completes. When the backend runs the op's conversion itself,
 * when no scratch can be had (the pool's cap), or for a graph's node (a sequence already), the op
 * stays one stage and converts inline: same result, bitwise.
 *
 * The conversion may also run before the op's turn on its stream, while
 * the op in front of it computes (scheduler/sched.h, run-ahead), when that
 * op's writes (ops/span.h) miss op(A) and op(B): a chain of precision-mode
 * GEMMs on one stream converts the next while it multiplies the current.
 */
#include "daemon/service_internal.h"
#include "ops/convert_stage.h"

void trn_service_convert_op(trn_service *svc, trn_service_op *op, trn_session *s) {
    trn_sched_op *sop = &op->sop;
    const trn_backend *be = svc->backend;
    if (!svc->convert_ahead || !be || !be->converts_ahead || sop->steps || sop->nthen > 0)
        return;
    const size_t bytes = trn_convert_stage_bytes(&sop->desc);
    if (bytes == 0 || !be->converts_ahead(be, &sop->desc))
        return;
    char err[TRN_SERVICE_ERRLEN];
    if (trn_service_scratch_take(svc, s, bytes, "a GEMM's converted operands", &op->convert, err,
                                 sizeof(err)) != TRN_WIRE_OK)
        return; /* inline: the same result */
    /* It reads op(A) and op(B) only: it may run ahead of its turn, while
     * the op in front of it computes, when that op writes neither. */
    const int nr = svc->run_ahead ? trn_convert_stage_read_spans(&sop->desc, sop->ahead_reads,
                                                                 TRN_SCHED_MAX_SPANS)
                                  : -1;
    sop->first_stage_ahead = nr > 0;
    sop->nahead_reads = nr > 0 ? nr : 0;
    trn_op_desc convert, compute;
    trn_convert_stage_split(&sop->desc, op->convert.p, &convert, &compute);
    sop->desc = convert;
    sop->then[0] = compute;
    sop->nthen = 1;
    sop->first_stage_anywhere = 1; /* on idle cores it is split over them all */
}

void trn_service_convert_free(trn_service_op *op) {
    trn_service_scratch_give(&op->convert);
}
