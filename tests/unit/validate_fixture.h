/*
 * validate_fixture.h — what the validator unit tests share: a CPU backend, a
 * one-core scheduler and a session table with two sessions (s1, s2: "another
 * session's buffer" cases), and helpers that run trn_validate_op and check
 * the outcome, the references held and the message.
 */
#ifndef TRN_TESTS_UNIT_VALIDATE_FIXTURE_H
#define TRN_TESTS_UNIT_VALIDATE_FIXTURE_H

#include <stdint.h>

#include "daemon/session.h"
#include "daemon/validate.h"
#include "kernels/backend.h"
#include "scheduler/sched.h"

typedef struct fx {
    trn_backend *be;
    trn_sched *sched;
    trn_config cfg;
    trn_session_table table;
    trn_session *s1, *s2;
    trn_op_desc desc;
    trn_op_refs refs;
    char err[512];
} fx;

/* cmocka setup / teardown: *state is the fx; teardown checks that no byte
 * is held after both sessions close. */
int vf_setup(void **state);
int vf_teardown(void **state);
/* A buffer of `bytes` in session s (fails the test if refused). */
uint64_t vf_alloc(trn_session *s, uint64_t bytes);
/* op must validate, holding nrefs buffer references (released again). */
void vf_expect_ok(fx *f, trn_session *s, const Trnsci__V1__Op *op, int nrefs);
/* op must be refused with code and a message containing needle, holding
 * nothing. */
void vf_expect_err(fx *f, trn_session *s, const Trnsci__V1__Op *op, trn_wire_code code,
                   const char *needle);

#endif
