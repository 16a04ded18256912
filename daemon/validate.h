/*
 * validate.h — validation of what a session sends: the ops layer's
 * validators (ops/validate/validate.h) run against the session's buffers
 * and plans, whose references the op holds until it completes.
 */
#ifndef TRN_DAEMON_VALIDATE_H
#define TRN_DAEMON_VALIDATE_H

#include "daemon/session.h"
#include "ops/op.h"
#include "ops/validate/validate.h"
#include "trnsci/v1/trnsci.pb-c.h"

/* The session's buffers and plans as the validators' host: references are
 * trn_buffer and trn_plan_entry references. Ops do not see the session's
 * staging buffer (it is the transport's); trn_validate_region does. */
extern const trn_vhost trn_session_vhost;

/* Validates op against session s into out; on success refs holds what the
 * op uses (and the plan part it needs is queued for building), on failure
 * nothing, and err names the argument and the rule it broke. */
trn_wire_code trn_validate_op(trn_session *s, const Trnsci__V1__Op *op, trn_op_desc *out,
                              trn_op_refs *refs, char *err, size_t errlen);

/* trn_vregion (and trn_vregion_many) against session s, for the service's
 * own buffer arguments (Write, Read, stage-out). */
trn_wire_code trn_validate_region(trn_session *s, const Trnsci__V1__BufferRef *ref, uint64_t bytes,
                                  uint64_t align, const char *what, trn_op_refs *refs, void **out,
                                  char *err, size_t errlen);
trn_wire_code trn_validate_region_many(trn_session *s, const Trnsci__V1__BufferRef *ref,
                                       uint64_t bytes, uint64_t align, const char *what,
                                       trn_op_refs *refs, void **out, char *err, size_t errlen);

/* An FftPlanSpec as a plan spec and a handle's batch layout (trn_vfft_plan;
 * the handle's entry is left alone). */
/* The wire code of a plan the cache could not give (TRN_PLAN_OK: OK):
 * INVALID_ARGUMENT when the backend cannot plan it, INTERNAL when its
 * preparation failed before, RESOURCE_EXHAUSTED for size or memory. */
trn_wire_code trn_plan_error_code(trn_plan_error r);

trn_wire_code trn_validate_fft_plan(const Trnsci__V1__FftPlanSpec *w, trn_plan_spec *spec,
                                    trn_session_plan *handle, char *err, size_t errlen);
/* A TensorContractionSpec as a plan spec (trn_vtensor_plan). */
trn_wire_code trn_validate_tensor_plan(const Trnsci__V1__TensorContractionSpec *w,
                                       trn_plan_spec *spec, char *err, size_t errlen);

/* The session's plan `id` with a reference to its entry, copied to *h:
 * 0, or -1 when the session has no such plan. */
int trn_validate_plan_get(trn_session *s, uint32_t id, trn_session_plan *h);

#endif
