/*
 * fleet.c — see fleet.h.
 */
#define _GNU_SOURCE
#include "client/fleet.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

/* "host:port" → "a.b.c.d:port" (the host's first IPv4 address). */
static int resolve4(const char *entry, char *out, size_t len) {
    const char *colon = strrchr(entry, ':');
    char host[256];
    if (!colon || colon == entry || (size_t)(colon - entry) >= sizeof(host))
        return -1;
    memcpy(host, entry, (size_t)(colon - entry));
    host[colon - entry] = '\0';
    struct addrinfo hints = {.ai_family = AF_INET, .ai_socktype = SOCK_STREAM};
    struct addrinfo *res = NULL;
    if (getaddrinfo(host, colon + 1, &hints, &res) != 0 || !res)
        return -1;
    char ip[INET_ADDRSTRLEN];
    const struct sockaddr_in *sa = (const struct sockaddr_in *)res->ai_addr;
    inet_ntop(AF_INET, &sa->sin_addr, ip, sizeof(ip));
    freeaddrinfo(res);
    const int n = snprintf(out, len, "%s%s", ip, colon);
    return n > 0 && (size_t)n < len ? 0 : -1;
}

int trn_fleet_target(const char *address, char *out, size_t len) {
    char list[2048];
    snprintf(list, sizeof(list), "%s", address);
    char *entries[32];
    int n = 0;
    for (char *save = NULL, *tok = strtok_r(list, ",", &save); tok && n < 32;
         tok = strtok_r(NULL, ",", &save)) {
        while (*tok == ' ')
            tok++;
        if (!*tok)
            continue;
        if (strncmp(tok, "unix:", 5) == 0 || strncmp(tok, "grpc+unix:", 10) == 0 ||
            strncmp(tok, "unix-abstract:", 14) == 0)
            return 0;
        entries[n++] = tok;
    }
    if (n == 0)
        return 0;
    if (n == 1) {
        snprintf(out, len, "%s", entries[0]);
        return 1;
    }
    size_t used = (size_t)snprintf(out, len, "ipv4:");
    int resolved = 0;
    for (int i = 0; i < n && used < len; i++) {
        char one[300];
        const char *e = entries[i];
        if (strncmp(e, "ipv4:", 5) == 0)
            e += 5;
        if (resolve4(e, one, sizeof(one)) != 0)
            continue; /* an unknown host: the others may do */
        used += (size_t)snprintf(out + used, len - used, "%s%s", resolved ? "," : "", one);
        resolved++;
    }
    if (!resolved || used >= len) {
        snprintf(out, len, "none of the daemons in %s resolves to an IPv4 address", address);
        return -1;
    }
    return 1;
}
