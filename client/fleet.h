/*
 * fleet.h — TRNSCI_ADDR naming several daemons: which one a new session uses.
 *
 * "host1:7450,host2:7450,..." (or one DNS name with several A records)
 * names a fleet of daemons reached over gRPC. A new session asks gRPC's own
 * round_robin load-balancing policy which daemon to use (a Status call on a
 * balancing channel, transport.h trn_transport_grpc_pick) and then keeps to
 * that daemon: a session lives on one daemon and never moves. Daemons that
 * cannot be reached are skipped by the policy, so new sessions go to the
 * live ones.
 */
#ifndef TRN_CLIENT_FLEET_H
#define TRN_CLIENT_FLEET_H

#include <stddef.h>

/* The balancing target for address (a comma list): 1 with out written when
 * every entry is a gRPC TCP target ("host:port", "ipv4:...", "dns:..."),
 * 0 when the list names a local socket (unix:, grpc+unix:: no balancing),
 * -1 with out holding why when no entry could be resolved. Several
 * "host:port" entries become one "ipv4:a:p,b:p" target (host names
 * resolved to their first IPv4 address); a single entry is used as it is,
 * so gRPC's DNS resolver sees all of a name's records. */
int trn_fleet_target(const char *address, char *out, size_t len);

#endif
