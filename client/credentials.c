/*
 * credentials.c — reads the client's token and TLS files (see credentials.h).
 */
#include "client/credentials.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Files larger than this are not tokens or PEM files. */
#define CRED_FILE_MAX (1u << 20)

/* A whole file as a NUL-terminated string, or NULL with c->error written. */
static char *read_file(trn_client_creds *c, const char *var, const char *path) {
    FILE *f = fopen(path, "re");
    if (!f) {
        snprintf(c->error, sizeof(c->error), "%s=%s: %s", var, path, strerror(errno));
        return NULL;
    }
    char *buf = malloc(CRED_FILE_MAX + 1);
    const size_t n = buf ? fread(buf, 1, CRED_FILE_MAX + 1, f) : 0;
    const int bad = !buf || ferror(f) || n == 0 || n > CRED_FILE_MAX;
    fclose(f);
    if (bad) {
        snprintf(c->error, sizeof(c->error), "%s=%s: empty, unreadable or too large", var, path);
        free(buf);
        return NULL;
    }
    buf[n] = '\0';
    return buf;
}

static void wipe_free(char *s) {
    if (s) {
        memset(s, 0, strlen(s));
        free(s);
    }
}

/* The token: $TRNSCI_TOKEN, else the first line of $TRNSCI_TOKEN_FILE. */
static void read_token(trn_client_creds *c) {
    const char *tok = getenv("TRNSCI_TOKEN");
    if (tok && tok[0]) {
        c->token = strdup(tok);
        if (!c->token)
            snprintf(c->error, sizeof(c->error), "out of memory");
        return;
    }
    const char *path = getenv("TRNSCI_TOKEN_FILE");
    if (!path || !path[0])
        return;
    char *text = read_file(c, "TRNSCI_TOKEN_FILE", path);
    if (!text)
        return;
    text[strcspn(text, "\r\n")] = '\0';
    if (!text[0]) {
        snprintf(c->error, sizeof(c->error), "TRNSCI_TOKEN_FILE=%s: the first line is empty", path);
        wipe_free(text);
        return;
    }
    c->token = text;
}

void trn_client_creds_from_env(trn_client_creds *c) {
    memset(c, 0, sizeof(*c));
    read_token(c);
    if (c->error[0])
        return;
    const char *ca = getenv("TRNSCI_TLS_CA");
    const char *cert = getenv("TRNSCI_TLS_CERT");
    const char *key = getenv("TRNSCI_TLS_KEY");
    const int has_cert = cert && cert[0], has_key = key && key[0];
    if (has_cert != has_key || ((has_cert || has_key) && !(ca && ca[0]))) {
        snprintf(c->error, sizeof(c->error),
                 "TRNSCI_TLS_CERT and TRNSCI_TLS_KEY go together and need TRNSCI_TLS_CA");
        return;
    }
    if (!ca || !ca[0])
        return;
    c->ca_pem = read_file(c, "TRNSCI_TLS_CA", ca);
    if (c->ca_pem && has_cert) {
        c->cert_pem = read_file(c, "TRNSCI_TLS_CERT", cert);
        if (c->cert_pem)
            c->key_pem = read_file(c, "TRNSCI_TLS_KEY", key);
    }
}

void trn_client_creds_free(trn_client_creds *c) {
    wipe_free(c->token);
    free(c->ca_pem);
    free(c->cert_pem);
    wipe_free(c->key_pem);
    memset(c, 0, sizeof(*c));
}
