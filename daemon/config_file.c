/*
 * config_file.c — see config_file.h. Parsing is inih's (Debian libinih);
 * this file adds line numbers to the callback (inih passes them only when
 * built with INI_HANDLER_LINENO, which Debian's is not) by reading the file
 * through a counting line reader, and turns the first error into a message.
 */
#include "daemon/config_file.h"

#include <errno.h>
#include <ini.h>
#include <stdio.h>
#include <string.h>

typedef struct reader {
    FILE *f;
    int line;        /* number of the line being parsed */
    int at_line_end; /* the last chunk read ended a line */
    trn_config_file_cb cb;
    void *user;
    int failed; /* the callback refused a key: stop calling it */
    char msg[512];
} reader;

/* inih's fgets: counts lines (a line longer than inih's buffer arrives in
 * several chunks and counts once). */
static char *read_line(char *str, int num, void *stream) {
    reader *r = stream;
    char *s = fgets(str, num, r->f);
    if (!s)
        return NULL;
    if (r->at_line_end)
        r->line++;
    const size_t n = strlen(s);
    r->at_line_end = n > 0 && s[n - 1] == '\n';
    return s;
}

static int on_key(void *user, const char *section, const char *name, const char *value) {
    reader *r = user;
    if (r->failed)
        return 0;
    if (section[0] && strcmp(section, "trnscid") != 0) {
        snprintf(r->msg, sizeof(r->msg), "unknown section [%s] (only [trnscid])", section);
        r->failed = r->line;
        return 0;
    }
    if (r->cb(r->user, name, value, r->msg, sizeof(r->msg)) != 0) {
        r->failed = r->line;
        return 0;
    }
    return 1;
}

int trn_config_file_read(const char *path, trn_config_file_cb cb, void *user, char *err,
                         size_t errlen) {
    reader r = {.line = 0, .at_line_end = 1, .cb = cb, .user = user};
    r.f = fopen(path, "r");
    if (!r.f) {
        snprintf(err, errlen, "%s: cannot read the config file: %s", path, strerror(errno));
        return -1;
    }
    const int bad = ini_parse_stream(read_line, &r, on_key, &r);
    const int io_error = ferror(r.f);
    fclose(r.f);
    if (r.failed) {
        snprintf(err, errlen, "%s:%d: %s", path, r.failed, r.msg);
        return -1;
    }
    if (bad > 0) {
        snprintf(err, errlen, "%s:%d: expected 'key = value', a [section] or a comment", path, bad);
        return -1;
    }
    if (bad < 0 || io_error) {
        snprintf(err, errlen, "%s: cannot read the config file", path);
        return -1;
    }
    return 0;
}
