/*
 * tls.c — TLS server credentials and the listen policy (see tls.h).
 *
 * The PEM files are read once at start-up into memory handed to gRPC core,
 * which copies them; the private key's copy here is wiped before it is freed.
 */
#include "daemon/tls.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PEM_MAX (1u << 20)

int trn_listen_target(const char *addr, char *buf, size_t len) {
    const int n =
        addr[0] == ':' ? snprintf(buf, len, "127.0.0.1%s", addr) : snprintf(buf, len, "%s", addr);
    return n < 0 || (size_t)n >= len ? -1 : 0;
}

int trn_listen_is_loopback(const char *addr) {
    const char *colon = strrchr(addr, ':');
    if (!colon)
        return 0;
    size_t n = (size_t)(colon - addr);
    const char *h = addr;
    if (n >= 2 && h[0] == '[' && h[n - 1] == ']') {
        h++;
        n -= 2;
    }
    if (n == 0)
        return 1;
    if ((n == 9 && strncmp(h, "localhost", 9) == 0) || (n == 3 && strncmp(h, "::1", 3) == 0))
        return 1;
    /* 127.a.b.c, digits and dots only (a name such as 127.example.com is not) */
    if (n < 4 || strncmp(h, "127.", 4) != 0)
        return 0;
    int dots = 0;
    for (size_t i = 0; i < n; i++) {
        if (h[i] == '.')
            dots++;
        else if (h[i] < '0' || h[i] > '9')
            return 0;
    }
    return dots == 3;
}

int trn_listen_check(const trn_config *cfg, const char *addr, char *err, size_t errlen) {
    if (!cfg->tls_cert && !cfg->insecure_remote && !trn_listen_is_loopback(addr)) {
        snprintf(err, errlen,
                 "refusing to listen on %s without TLS: it is reachable from the network. Give "
                 "--tls-cert and --tls-key (and --tokens-file), or --insecure-remote if that is "
                 "really intended",
                 addr);
        return -1;
    }
    /* Loopback is no boundary between the machine's users: without tokens a
     * TCP port lets any of them in around the local socket's permissions,
     * as nobody the per-user limits could count. */
    if (!cfg->tokens_file && !cfg->allow_unauthenticated_tcp) {
        snprintf(err, errlen,
                 "refusing to listen on %s without --tokens-file: any user of this machine could "
                 "connect to it, around the local socket's permissions and unaccounted by the "
                 "per-user limits. Give --tokens-file, or --allow-unauthenticated-tcp if that is "
                 "really intended",
                 addr);
        return -1;
    }
    return 0;
}

/* Reads a whole PEM file into a NUL-terminated string. */
static char *read_pem(const char *flag, const char *path, char *err, size_t errlen) {
    FILE *f = fopen(path, "re");
    if (!f) {
        snprintf(err, errlen, "%s %s: %s", flag, path, strerror(errno));
        return NULL;
    }
    char *buf = malloc(PEM_MAX + 1);
    size_t n = buf ? fread(buf, 1, PEM_MAX + 1, f) : 0;
    const int bad = !buf || ferror(f) || n == 0 || n > PEM_MAX;
    fclose(f);
    if (bad) {
        snprintf(err, errlen, "%s %s: empty, unreadable or larger than %u bytes", flag, path,
                 PEM_MAX);
        free(buf);
        return NULL;
    }
    buf[n] = '\0';
    if (!strstr(buf, "-----BEGIN ")) {
        snprintf(err, errlen, "%s %s: not a PEM file", flag, path);
        free(buf);
        return NULL;
    }
    return buf;
}

static void wipe_free(char *s) {
    if (s) {
        memset(s, 0, strlen(s));
        free(s);
    }
}

grpc_server_credentials *trn_tls_server_credentials(const trn_config *cfg, char *err,
                                                    size_t errlen) {
    if (!cfg->tls_cert)
        return grpc_insecure_server_credentials_create();
    grpc_server_credentials *creds = NULL;
    char *cert = read_pem("--tls-cert", cfg->tls_cert, err, errlen);
    char *key = cert ? read_pem("--tls-key", cfg->tls_key, err, errlen) : NULL;
    char *ca = key && cfg->tls_client_ca
                   ? read_pem("--tls-client-ca", cfg->tls_client_ca, err, errlen)
                   : NULL;
    if (key && (ca || !cfg->tls_client_ca)) {
        grpc_ssl_pem_key_cert_pair pair = {.private_key = key, .cert_chain = cert};
        creds = grpc_ssl_server_credentials_create_ex(
            ca, &pair, 1,
            ca ? GRPC_SSL_REQUEST_AND_REQUIRE_CLIENT_CERTIFICATE_AND_VERIFY
               : GRPC_SSL_DONT_REQUEST_CLIENT_CERTIFICATE,
            NULL);
        if (!creds)
            snprintf(err, errlen, "gRPC rejected the TLS certificate or key");
    }
    free(cert);
    wipe_free(key);
    free(ca);
    return creds;
}
