/*
 * credentials.h — what a remote client presents to the daemon, from the
 * environment:
 *   TRNSCI_TOKEN       the bearer token sent with every gRPC call, or
 *   TRNSCI_TOKEN_FILE  a file whose first line is the token
 *   TRNSCI_TLS_CA      PEM file of the CA that signed the daemon's
 *                      certificate: TCP connections then use TLS
 *   TRNSCI_TLS_CERT    with TRNSCI_TLS_KEY: this client's certificate and
 *                      key, for a daemon that requires client certificates
 * Read when a gRPC transport opens; no gRPC here (transport_grpc.c builds the
 * gRPC credentials from this).
 */
#ifndef TRN_CLIENT_CREDENTIALS_H
#define TRN_CLIENT_CREDENTIALS_H

#include <stddef.h>

typedef struct trn_client_creds {
    char *token;    /* NULL: no token */
    char *ca_pem;   /* NULL: plain TCP */
    char *cert_pem; /* NULL: no client certificate */
    char *key_pem;
    /* Non-empty when the environment names something unusable: the transport
     * then refuses every call with this message rather than fall back to
     * sending anything in the clear. */
    char error[256];
} trn_client_creds;

/* Fills c (zeroed first) from the environment. */
void trn_client_creds_from_env(trn_client_creds *c);
/* Frees and wipes what trn_client_creds_from_env read. */
void trn_client_creds_free(trn_client_creds *c);

#endif
