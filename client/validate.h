/*
 * validate.h — libtrnsci checks each op before it sends it, with the
 * daemon's own validators (ops/validate/) run against what this process
 * knows: its allocations (the pointer table) and the plans it made. A bad
 * argument then fails at once, in the caller's process, with the status and
 * message the daemon would give, and no request is sent. The daemon still
 * validates everything it receives.
 *
 * The plans are client/plan_records.h's. An op naming a plan this process
 * has no record of is left to the daemon to judge.
 */
#ifndef TRN_CLIENT_VALIDATE_H
#define TRN_CLIENT_VALIDATE_H

#include <stddef.h>
#include <stdint.h>

#include "client/client.h"
#include "trnsci/v1/trnsci.pb-c.h"
#include "trnsci_wire.h"

/* Records plan id, made by the PlanCreate request req (best effort: a plan
 * whose spec cannot be derived here, or no memory, leaves no record). */
void trn_client_plan_made(trn_client *c, uint32_t id, const Trnsci__V1__PlanCreateRequest *req);
/* Forgets plan id (PlanDestroy). */
void trn_client_plan_gone(trn_client *c, uint32_t id);

/* Validates op as the daemon would: TRN_WIRE_OK, or the daemon's code with
 * its message in msg. */
trn_wire_code trn_client_validate(trn_client *c, const Trnsci__V1__Op *op, char *msg,
                                  size_t msglen);

#endif
