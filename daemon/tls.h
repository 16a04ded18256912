/*
 * tls.h — who may reach the gRPC listeners: TLS credentials for TCP and the
 * rule that keeps an unprotected daemon off the network.
 *
 * Policy: gRPC on TCP exists only when a host:port --listen address is given
 * (the default is the local socket alone); ":PORT" binds the loopback
 * interface. With --tls-cert/--tls-key every TCP listener speaks TLS (and,
 * with --tls-client-ca, requires and verifies a client certificate); unix
 * sockets stay plain (the kernel's permissions protect them). A TCP listener
 * on a non-loopback address without TLS refuses to start unless
 * --insecure-remote says that is intended. Any TCP listener (loopback
 * included) without --tokens-file refuses to start unless
 * --allow-unauthenticated-tcp says that is intended: loopback separates the
 * machine from the network, not its users from each other.
 */
#ifndef TRN_DAEMON_TLS_H
#define TRN_DAEMON_TLS_H

#include <grpc/grpc.h>
#include <grpc/grpc_security.h>
#include <stddef.h>

#include "daemon/config.h"

/* Whether a gRPC TCP address ("host:port", "[v6]:port") names the loopback
 * interface: localhost, 127.0.0.0/8 or ::1. An empty host counts as loopback
 * because trn_listen_target binds it there. */
int trn_listen_is_loopback(const char *addr);

/* The address to hand gRPC for a TCP --listen address: ":PORT" becomes
 * "127.0.0.1:PORT"; others are copied. Returns 0, or -1 if buf is too small. */
int trn_listen_target(const char *addr, char *buf, size_t len);

/* Applies the policy above to one TCP address. Returns 0, or -1 with err
 * written (reachable from the network without TLS, or by any local user
 * without a token). */
int trn_listen_check(const trn_config *cfg, const char *addr, char *err, size_t errlen);

/* The credentials for TCP listeners: TLS from the configured PEM files, or
 * insecure when no certificate is configured. NULL with err written when a
 * file cannot be read. Release with grpc_server_credentials_release. */
grpc_server_credentials *trn_tls_server_credentials(const trn_config *cfg, char *err,
                                                    size_t errlen);

#endif
