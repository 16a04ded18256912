/*
 * token.c — the tokens file and bearer-token checks (see token.h).
 *
 * The parser takes untrusted-looking text defensively (it is fuzzed): every
 * field is length-checked before it is copied and numbers go through the
 * config's overflow-checked parsers. Its messages name the file and line the
 * way the config file's do (PATH:LINE: ...), because a reload logs them
 * where an operator has only the log to go by.
 */
#include "daemon/token.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "daemon/config.h"

/* A tokens file larger than this is a mistake, not a token list. */
#define TOKENS_FILE_MAX (1u << 20)
#define LINE_MAX_FIELDS 8

static int is_name_char(char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' ||
           c == '_' || c == '-';
}

static int is_secret_char(char c) {
    return is_name_char(c) || c == '~' || c == '+' || c == '/' || c == '=';
}

static int all_chars(const char *s, size_t n, int (*ok)(char)) {
    for (size_t i = 0; i < n; i++)
        if (!ok(s[i]))
            return 0;
    return 1;
}

/* Compares two zero-padded secrets in full: 0 when equal. */
static unsigned secret_diff(const unsigned char *a, size_t alen, const unsigned char *b,
                            size_t blen) {
    unsigned d = (unsigned)(alen ^ blen);
    for (size_t i = 0; i < TRN_TOKEN_SECRET_MAX; i++)
        d |= (unsigned)(a[i] ^ b[i]);
    return d;
}

static int parse_u32(const char *s, size_t n, uint32_t max, uint32_t *out) {
    if (n == 0 || n > 10)
        return -1;
    uint64_t v = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return -1;
        v = v * 10 + (uint64_t)(s[i] - '0');
    }
    if (v > max)
        return -1;
    *out = (uint32_t)v;
    return 0;
}

/* One `key=value` limit of a token. */
static int parse_limit(trn_token_limits *lim, const char *f, size_t n, const char *source,
                       unsigned line, char *err, size_t errlen) {
    const char *eq = memchr(f, '=', n);
    if (!eq)
        goto bad;
    const size_t klen = (size_t)(eq - f);
    const char *v = eq + 1;
    const size_t vlen = n - klen - 1;
    if (klen == 8 && memcmp(f, "sessions", 8) == 0) {
        if (parse_u32(v, vlen, 1000000, &lim->sessions) == 0)
            return 0;
    } else if (klen == 10 && memcmp(f, "queued-ops", 10) == 0) {
        if (parse_u32(v, vlen, 10000000, &lim->queued_ops) == 0)
            return 0;
    } else if (klen == 5 && memcmp(f, "bytes", 5) == 0) {
        char buf[32];
        if (vlen > 0 && vlen < sizeof(buf)) {
            memcpy(buf, v, vlen);
            buf[vlen] = '\0';
            if (trn_config_parse_bytes(buf, &lim->bytes) == 0)
                return 0;
        }
    } else if (klen == 5 && memcmp(f, "scope", 5) == 0) {
        if (vlen == 5 && memcmp(v, "admin", 5) == 0) {
            lim->admin = 1;
            return 0;
        }
        if (vlen == 4 && memcmp(v, "user", 4) == 0) {
            lim->admin = 0;
            return 0;
        }
    } else if (klen == 16 && memcmp(f, "priority-ceiling", 16) == 0) {
        const int neg = vlen > 0 && v[0] == '-';
        uint32_t p;
        if (parse_u32(v + neg, vlen - (size_t)neg, TRN_PRIORITY_LEAST, &p) == 0) {
            lim->priority_ceiling = neg ? -(int)p : (int)p;
            if (lim->priority_ceiling >= TRN_PRIORITY_GREATEST)
                return 0;
        }
    }
bad:
    snprintf(err, errlen,
             "%s:%u: '%.*s': expected sessions=N, bytes=SIZE, queued-ops=N, "
             "priority-ceiling=%d..%d or scope=admin|user",
             source, line, (int)(n > 64 ? 64 : n), f, TRN_PRIORITY_GREATEST, TRN_PRIORITY_LEAST);
    return -1;
}

/* Splits one line (without its newline) into at most LINE_MAX_FIELDS
 * whitespace-separated fields; returns the count, or -1 when there are more. */
static int split_fields(const char *p, size_t n, const char **f, size_t *flen) {
    int k = 0;
    size_t i = 0;
    for (;;) {
        while (i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == '\r'))
            i++;
        if (i == n || p[i] == '#')
            return k;
        if (k == LINE_MAX_FIELDS)
            return -1;
        f[k] = p + i;
        while (i < n && p[i] != ' ' && p[i] != '\t' && p[i] != '\r')
            i++;
        flen[k] = (size_t)(p + i - f[k]);
        k++;
    }
}

static int parse_line(trn_tokens *t, const char *p, size_t n, const char *source, unsigned line,
                      char *err, size_t errlen) {
    const char *f[LINE_MAX_FIELDS];
    size_t flen[LINE_MAX_FIELDS];
    const int k = split_fields(p, n, f, flen);
    if (k == 0)
        return 0;
    if (k < 0) {
        snprintf(err, errlen, "%s:%u: too many fields", source, line);
        return -1;
    }
    if (k < 2) {
        snprintf(err, errlen, "%s:%u: expected NAME SECRET [limits]", source, line);
        return -1;
    }
    if (flen[0] >= TRN_TOKEN_NAME_MAX || !all_chars(f[0], flen[0], is_name_char)) {
        snprintf(err, errlen, "%s:%u: the name must be 1..%d characters of A-Z a-z 0-9 . _ -",
                 source, line, TRN_TOKEN_NAME_MAX - 1);
        return -1;
    }
    if (flen[1] < TRN_TOKEN_SECRET_MIN || flen[1] > TRN_TOKEN_SECRET_MAX ||
        !all_chars(f[1], flen[1], is_secret_char)) {
        snprintf(err, errlen,
                 "%s:%u: the secret must be %d..%d characters of A-Z a-z 0-9 . _ ~ + / = -", source,
                 line, TRN_TOKEN_SECRET_MIN, TRN_TOKEN_SECRET_MAX);
        return -1;
    }
    trn_token_limits lim = {.priority_ceiling = TRN_PRIORITY_GREATEST};
    for (int i = 2; i < k; i++)
        if (parse_limit(&lim, f[i], flen[i], source, line, err, errlen) != 0)
            return -1;
    unsigned char secret[TRN_TOKEN_SECRET_MAX];
    memset(secret, 0, sizeof(secret));
    memcpy(secret, f[1], flen[1]);
    for (size_t i = 0; i < t->n; i++) {
        const trn_token *o = t->v[i];
        if ((strlen(o->name) == flen[0] && memcmp(o->name, f[0], flen[0]) == 0) ||
            secret_diff(o->secret, o->secret_len, secret, flen[1]) == 0) {
            memset(secret, 0, sizeof(secret));
            snprintf(err, errlen, "%s:%u: the name or the secret is used twice", source, line);
            return -1;
        }
    }
    trn_token **v = realloc(t->v, (t->n + 1) * sizeof(*v));
    trn_token *tk = v ? calloc(1, sizeof(*tk)) : NULL;
    if (v)
        t->v = v;
    if (!tk) {
        memset(secret, 0, sizeof(secret));
        snprintf(err, errlen, "%s: out of memory reading it", source);
        return -1;
    }
    memcpy(tk->name, f[0], flen[0]);
    memcpy(tk->secret, secret, sizeof(secret));
    memset(secret, 0, sizeof(secret));
    tk->secret_len = flen[1];
    atomic_init(&tk->max_sessions, lim.sessions);
    atomic_init(&tk->max_bytes, lim.bytes);
    atomic_init(&tk->max_queued_ops, lim.queued_ops);
    atomic_init(&tk->priority_ceiling, lim.priority_ceiling);
    atomic_init(&tk->admin, lim.admin);
    atomic_init(&tk->queued, 0);
    atomic_init(&tk->refs, 1); /* the table's */
    atomic_init(&tk->revoked, 0);
    t->v[t->n++] = tk;
    return 0;
}

int trn_tokens_parse(trn_tokens *t, const char *text, size_t len, const char *source, char *err,
                     size_t errlen) {
    size_t i = 0;
    unsigned line = 1;
    while (i < len) {
        const char *nl = memchr(text + i, '\n', len - i);
        const size_t n = nl ? (size_t)(nl - (text + i)) : len - i;
        if (memchr(text + i, '\0', n)) {
            snprintf(err, errlen, "%s:%u: contains a NUL byte", source, line);
            goto fail;
        }
        if (parse_line(t, text + i, n, source, line, err, errlen) != 0)
            goto fail;
        i += n + (nl != NULL);
        line++;
    }
    if (t->n == 0) {
        snprintf(err, errlen, "%s: lists no token", source);
        goto fail;
    }
    return 0;
fail:
    trn_tokens_free(t);
    return -1;
}

int trn_tokens_load(trn_tokens *t, const char *path, char *err, size_t errlen) {
    /* O_NONBLOCK: a FIFO in its place must not hang the daemon (a reload runs on
     * the main loop); it is then refused as not a regular file. */
    const int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
    if (fd < 0) {
        if (errno == ELOOP) /* O_NOFOLLOW: whoever can change the link could swap the file */
            snprintf(err, errlen, "--tokens-file %s: a symbolic link; name the file itself", path);
        else
            snprintf(err, errlen, "--tokens-file %s: %s", path, strerror(errno));
        return -1;
    }
    char *buf = NULL;
    int rc = -1;
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        snprintf(err, errlen, "--tokens-file %s: not a regular file", path);
        goto out;
    }
    if (st.st_mode & (S_IRWXG | S_IRWXO)) {
        snprintf(err, errlen,
                 "--tokens-file %s: readable or writable by group or others (mode %03o); "
                 "chmod 600 it",
                 path, (unsigned)(st.st_mode & 0777));
        goto out;
    }
    if (st.st_uid != geteuid() && st.st_uid != 0) {
        snprintf(err, errlen, "--tokens-file %s: owned by uid %u, neither this user nor root", path,
                 (unsigned)st.st_uid);
        goto out;
    }
    if (st.st_size > TOKENS_FILE_MAX) {
        snprintf(err, errlen, "--tokens-file %s: larger than %u bytes", path, TOKENS_FILE_MAX);
        goto out;
    }
    const size_t size = (size_t)st.st_size;
    buf = malloc(size + 1);
    if (!buf) {
        snprintf(err, errlen, "out of memory reading %s", path);
        goto out;
    }
    size_t got = 0;
    while (got < size) {
        const ssize_t r = read(fd, buf + got, size - got);
        if (r <= 0) {
            snprintf(err, errlen, "--tokens-file %s: read failed", path);
            goto out;
        }
        got += (size_t)r;
    }
    rc = trn_tokens_parse(t, buf, size, path, err, errlen);
out:
    if (buf) {
        memset(buf, 0, st.st_size > 0 ? (size_t)st.st_size : 0); /* secrets */
        free(buf);
    }
    close(fd);
    return rc;
}

void trn_tokens_free(trn_tokens *t) {
    for (size_t i = 0; i < t->n; i++)
        trn_token_unref(t->v[i]);
    free(t->v);
    t->v = NULL;
    t->n = 0;
}

void trn_token_ref(trn_token *tk) {
    atomic_fetch_add(&tk->refs, 1);
}

void trn_token_unref(trn_token *tk) {
    if (atomic_fetch_sub(&tk->refs, 1) != 1)
        return;
    memset(tk->secret, 0, sizeof(tk->secret));
    free(tk);
}

trn_token_limits trn_token_get_limits(const trn_token *tk) {
    return (trn_token_limits){.sessions = atomic_load(&tk->max_sessions),
                              .bytes = atomic_load(&tk->max_bytes),
                              .queued_ops = atomic_load(&tk->max_queued_ops),
                              .priority_ceiling = atomic_load(&tk->priority_ceiling),
                              .admin = atomic_load(&tk->admin)};
}

trn_token *trn_tokens_authenticate(const trn_tokens *t, const char *value, size_t len) {
    static const char scheme[] = "bearer ";
    const size_t sl = sizeof(scheme) - 1;
    if (!value || len <= sl || len - sl > TRN_TOKEN_SECRET_MAX || strncasecmp(value, scheme, sl))
        return NULL;
    unsigned char given[TRN_TOKEN_SECRET_MAX];
    memset(given, 0, sizeof(given));
    memcpy(given, value + sl, len - sl);
    trn_token *found = NULL;
    for (size_t i = 0; i < t->n; i++)
        if (secret_diff(t->v[i]->secret, t->v[i]->secret_len, given, len - sl) == 0)
            found = t->v[i];
    memset(given, 0, sizeof(given));
    return found;
}
