/*
 * config_reload.c — see config_reload.h.
 *
 * Changes are found on the settings as given (trn_config_value), so a key
 * added to config.c's table is compared without this file knowing it; only
 * the keys that can change live are listed here, each with how to copy it.
 * Readers on other threads see each value change atomically (the fields are
 * _Atomic in trn_config); a reader that reads two fields may see one old and
 * one new, which no check depends on.
 */
#include "daemon/config_reload.h"

#include <string.h>

#include "daemon/log.h"

static void copy_log_level(trn_config *live, const trn_config *fresh) {
    live->log_level = fresh->log_level;
    trn_log_set_level(fresh->log_level);
}
static void copy_max_session_bytes(trn_config *live, const trn_config *fresh) {
    live->max_session_bytes = fresh->max_session_bytes;
}
static void copy_max_sessions_per_uid(trn_config *live, const trn_config *fresh) {
    live->max_sessions_per_uid = fresh->max_sessions_per_uid;
}
static void copy_max_bytes_per_uid(trn_config *live, const trn_config *fresh) {
    live->max_bytes_per_uid = fresh->max_bytes_per_uid;
}
static void copy_max_queued_ops_per_uid(trn_config *live, const trn_config *fresh) {
    live->max_queued_ops_per_uid = fresh->max_queued_ops_per_uid;
}
static void copy_max_streams(trn_config *live, const trn_config *fresh) {
    live->max_streams = fresh->max_streams;
}
static void copy_max_queued_ops(trn_config *live, const trn_config *fresh) {
    live->max_queued_ops = fresh->max_queued_ops;
}
static void copy_max_events(trn_config *live, const trn_config *fresh) {
    live->max_events = fresh->max_events;
}
static void copy_priority_ceiling(trn_config *live, const trn_config *fresh) {
    live->priority_ceiling = fresh->priority_ceiling;
}
static void copy_lease_ms(trn_config *live, const trn_config *fresh) {
    live->lease_ms = fresh->lease_ms;
}

static const struct {
    const char *key;
    void (*copy)(trn_config *live, const trn_config *fresh);
} live_keys[] = {
    {"log-level", copy_log_level},
    {"max-session-bytes", copy_max_session_bytes},
    {"max-sessions-per-uid", copy_max_sessions_per_uid},
    {"max-bytes-per-uid", copy_max_bytes_per_uid},
    {"max-queued-ops-per-uid", copy_max_queued_ops_per_uid},
    {"max-streams", copy_max_streams},
    {"max-queued-ops", copy_max_queued_ops},
    {"max-events", copy_max_events},
    {"priority-ceiling", copy_priority_ceiling},
    {"lease-ms", copy_lease_ms},
};

int trn_config_reload(trn_config *live, const trn_config *fresh) {
    int applied = 0;
    for (int i = 0;; i++) {
        const char *key = trn_config_key(i);
        if (!key)
            break;
        char was[512], now[512];
        const int had = trn_config_value(live, key, was, sizeof(was));
        const int has = trn_config_value(fresh, key, now, sizeof(now));
        if (had == has && (!had || strcmp(was, now) == 0))
            continue;
        const char *from = had ? was : "(default)";
        const char *to = has ? now : "(default)";
        size_t k = 0;
        while (k < sizeof(live_keys) / sizeof(live_keys[0]) && strcmp(live_keys[k].key, key) != 0)
            k++;
        if (k == sizeof(live_keys) / sizeof(live_keys[0])) {
            trn_log(TRN_LOG_WARN, "reload: %s changed (%s -> %s) but needs a restart: ignored", key,
                    from, to);
            continue;
        }
        if (trn_config_adopt(live, fresh, key) != 0)
            return -1;
        live_keys[k].copy(live, fresh);
        /* A log-level change is logged as a warning: it shows at any new
         * level but error. */
        trn_log(live_keys[k].copy == copy_log_level ? TRN_LOG_WARN : TRN_LOG_INFO,
                "reload: %s %s -> %s", key, from, to);
        applied++;
    }
    return applied;
}
