/*
 * config_file.h — reading trnscid's INI config file.
 *
 * The file is "key = value" lines (inih syntax: '#' or ';' start a comment
 * line, ';' an inline comment), either before any section or in a
 * [trnscid] section. This file knows the syntax only; what the keys mean is
 * config.c's business, through the callback. Every error names file:line.
 */
#ifndef TRN_DAEMON_CONFIG_FILE_H
#define TRN_DAEMON_CONFIG_FILE_H

#include <stddef.h>

/* Called for each "key = value" in file order; returns 0, or -1 with a
 * message (without location) in err. */
typedef int (*trn_config_file_cb)(void *user, const char *key, const char *value, char *err,
                                  size_t errlen);

/* Reads `path`, calling cb for each key. Returns 0, or -1 with err written as
 * "path:line: message" (or "path: why" when it cannot be read); reading stops
 * at the first error. */
int trn_config_file_read(const char *path, trn_config_file_cb cb, void *user, char *err,
                         size_t errlen);

#endif
