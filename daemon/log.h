/*
 * log.h — one line per event on stderr: "trnscid: <level>: <text>", or
 * "<priority><level>: <text>" when stderr goes to journald.
 *
 * The threshold is set once at start-up (and later on reload); it is an
 * atomic so that any thread may log.
 */
#ifndef TRN_DAEMON_LOG_H
#define TRN_DAEMON_LOG_H

typedef enum trn_log_level {
    TRN_LOG_ERROR = 0,
    TRN_LOG_WARN = 1,
    TRN_LOG_INFO = 2,
    TRN_LOG_DEBUG = 3,
} trn_log_level;

/* Chooses the line format: with journald priority prefixes when stderr is
 * the journal stream named by $JOURNAL_STREAM, plain otherwise. Call once,
 * before other threads log. */
void trn_log_init(void);
void trn_log_set_level(trn_log_level level);
/* Parses "error", "warn", "info", "debug". Returns 0, or -1 if unknown. */
int trn_log_parse_level(const char *name, trn_log_level *out);
void trn_log(trn_log_level level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
