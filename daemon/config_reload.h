/*
 * config_reload.h — SIGHUP: apply what changed in the configuration.
 */
#ifndef TRN_DAEMON_CONFIG_RELOAD_H
#define TRN_DAEMON_CONFIG_RELOAD_H

#include "daemon/config.h"

/* Compares fresh (the file and flags parsed again) with live, the running
 * configuration, key by key. A changed key that can change while the daemon
 * runs (log-level, the quotas, priority-ceiling, lease-ms) is copied into
 * live and logged; any other changed key is logged as ignored until a
 * restart, and live keeps it. Returns the number of keys applied, or -1 when
 * out of memory (live stays consistent: each key is applied whole or not). */
int trn_config_reload(trn_config *live, const trn_config *fresh);

#endif
