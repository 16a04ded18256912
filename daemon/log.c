/*
 * log.c — the daemon's logger. Each event is written with a single write(2)
 * so that lines from different threads never interleave.
 */
#include "daemon/log.h"

#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static atomic_int threshold = TRN_LOG_INFO;

static const char *const level_names[] = {"error", "warn", "info", "debug"};

void trn_log_set_level(trn_log_level level) {
    atomic_store(&threshold, (int)level);
}

int trn_log_parse_level(const char *name, trn_log_level *out) {
    for (int i = 0; i <= TRN_LOG_DEBUG; i++) {
        if (strcmp(name, level_names[i]) == 0) {
            *out = (trn_log_level)i;
            return 0;
        }
    }
    return -1;
}

void trn_log(trn_log_level level, const char *fmt, ...) {
    if ((int)level > atomic_load(&threshold))
        return;
    char line[1024];
    int n = snprintf(line, sizeof(line), "trnscid: %s: ", level_names[level]);
    va_list ap;
    va_start(ap, fmt);
    const int m = vsnprintf(line + n, sizeof(line) - (size_t)n - 1, fmt, ap);
    va_end(ap);
    n += m < 0 ? 0 : m;
    if (n > (int)sizeof(line) - 2)
        n = (int)sizeof(line) - 2;
    line[n++] = '\n';
    ssize_t w = write(STDERR_FILENO, line, (size_t)n);
    (void)w;
}
