/*
 * log.c — the daemon's logger. Each event is written with a single write(2)
 * so that lines from different threads never interleave.
 *
 * Under systemd, stderr is a stream to journald and $JOURNAL_STREAM names it
 * ("DEV:INODE"); lines then start with a syslog priority prefix ("<3>" for
 * error ... "<7>" for debug, sd-daemon(3)) that journald turns into the
 * entry's priority, and without the "trnscid:" name (journald records it).
 * The check compares the variable with stderr itself, so a child that
 * inherited the variable but writes elsewhere logs plain lines.
 */
#include "daemon/log.h"

#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static atomic_int threshold = TRN_LOG_INFO;

static atomic_int journal = 0; /* stderr is journald's stream */

static const char *const level_names[] = {"error", "warn", "info", "debug"};
/* syslog priorities: LOG_ERR, LOG_WARNING, LOG_INFO, LOG_DEBUG */
static const int level_priority[] = {3, 4, 6, 7};

void trn_log_init(void) {
    const char *js = getenv("JOURNAL_STREAM");
    unsigned long long dev, ino;
    struct stat st;
    int on = 0;
    if (js && sscanf(js, "%llu:%llu", &dev, &ino) == 2 && fstat(STDERR_FILENO, &st) == 0)
        on = (unsigned long long)st.st_dev == dev && (unsigned long long)st.st_ino == ino;
    atomic_store(&journal, on);
}

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
    int n =
        atomic_load(&journal)
            ? snprintf(line, sizeof(line), "<%d>%s: ", level_priority[level], level_names[level])
            : snprintf(line, sizeof(line), "trnscid: %s: ", level_names[level]);
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
